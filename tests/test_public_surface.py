"""Each package declares its public surface in ``__all__``, and every name there is what it
says: importable from the package (loaded from its module on first use where the package
keeps imports lazy) and listed by ``dir``."""

from __future__ import annotations

import importlib

import pytest

PACKAGES = [
    "arbiter",
    "arbiter.notation",
    "arbiter.adjudicator",
    "arbiter.diagram",
    "arbiter.pairing",
    "arbiter.ratings",
    "arbiter.service",
    "arbiter.service.events",
]


@pytest.mark.parametrize("name", PACKAGES)
def test_every_public_name_is_there(name: str) -> None:
    package = importlib.import_module(name)
    public = package.__all__
    assert public and len(set(public)) == len(public)
    for attribute in public:
        assert getattr(package, attribute) is not None, attribute
        assert attribute in dir(package), attribute


@pytest.mark.parametrize("name", PACKAGES)
def test_an_unknown_name_is_an_attribute_error(name: str) -> None:
    package = importlib.import_module(name)
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        package.nothing_here  # noqa: B018
