"""Events kept on the server (``spec/events.md``): storage and migrations
(:mod:`.store`, :mod:`.migrate`), what directors and players do (:mod:`.operations`), the
audit trail and its verification (:mod:`.chain`, :mod:`.verify`), backups
(:mod:`.archive`), and their faces: the API (:mod:`.api`), the public page (:mod:`.pages`)
and ``arbiter db`` (:mod:`.cli`).

Nothing here is imported by ``arbiter adjudicate`` and the other commands that keep nothing:
only by the event routes and ``arbiter db``."""
