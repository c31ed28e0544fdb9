/* arbiter._tuples: build a named tuple from its values in one step.
 *
 * Reading and replaying a record make a few named tuples per ply (a turn, its location, the
 * state after the move). Compiled code builds them with ``tuple.__new__(kind, values)``
 * (``arbiter.notation.ast.make``), which goes through the generic path of a type's
 * ``__new__``: an argument tuple, argument parsing, a plain tuple made first and then copied
 * into one of the named class. ``new(kind, values)`` allocates the named tuple and copies
 * the values into it: the same object, several times fewer instructions. ``of(kind, *values)``
 * takes the values as arguments, so that its caller makes no tuple of them first; and
 * ``replaced(items, index, value, ...)`` copies a tuple once with some items replaced.
 *
 * Optional: a build without a C compiler leaves it out, and ``make`` then calls
 * ``tuple.__new__``, which gives an equal object (tests/test_tuples.py compares the two).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* ``kind`` as a tuple class; NULL with a TypeError naming ``function`` if it is none. */
static PyTypeObject *
tuple_class(PyObject *kind, const char *function)
{
    if (!PyType_Check(kind) || !PyType_IsSubtype((PyTypeObject *)kind, &PyTuple_Type)) {
        PyErr_Format(PyExc_TypeError, "%s(): the first argument must be a tuple class", function);
        return NULL;
    }
    return (PyTypeObject *)kind;
}

/* A new tuple of the class ``type`` holding the ``size`` items of ``items``. */
static PyObject *
filled(PyTypeObject *type, PyObject *const *items, Py_ssize_t size)
{
    PyObject *made = type == &PyTuple_Type ? PyTuple_New(size) : type->tp_alloc(type, size);
    if (made == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        Py_INCREF(items[i]);
        PyTuple_SET_ITEM(made, i, items[i]);
    }
    return made;
}

static PyObject *
tuples_new(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "new() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    PyTypeObject *type = tuple_class(args[0], "new");
    if (type == NULL) {
        return NULL;
    }
    PyObject *values = args[1];
    if (!PyTuple_CheckExact(values)) {
        PyErr_SetString(PyExc_TypeError, "new(): the values must be a tuple");
        return NULL;
    }
    if (type == &PyTuple_Type) { /* as tuple.__new__(tuple, values): the same object */
        Py_INCREF(values);
        return values;
    }
    return filled(type, &PyTuple_GET_ITEM(values, 0), PyTuple_GET_SIZE(values));
}

/* of(kind, *values): new(kind, values) with the values as arguments, so that the caller builds
 * no tuple of them first. */
static PyObject *
tuples_of(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "of() takes a tuple class and its values");
        return NULL;
    }
    PyTypeObject *type = tuple_class(args[0], "of");
    return type == NULL ? NULL : filled(type, args + 1, nargs - 1);
}

/* replaced(items, index, value, ...): the tuple ``items`` with ``value`` at ``index``, for each
 * pair given (later pairs win), copied once: a board of a capture game after a move. */
static PyObject *
tuples_replaced(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || nargs % 2 == 0 || !PyTuple_CheckExact(args[0])) {
        PyErr_SetString(PyExc_TypeError, "replaced() takes a tuple and pairs of index, value");
        return NULL;
    }
    PyObject *items = args[0];
    Py_ssize_t size = PyTuple_GET_SIZE(items);
    for (Py_ssize_t k = 1; k < nargs; k += 2) {
        if (!PyLong_CheckExact(args[k])) {
            PyErr_SetString(PyExc_TypeError, "replaced(): an index must be an int");
            return NULL;
        }
        Py_ssize_t index = PyLong_AsSsize_t(args[k]);
        if (index == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            index = -1;
        }
        if (index < 0 || index >= size) {
            PyErr_SetString(PyExc_IndexError, "replaced(): index out of range");
            return NULL;
        }
    }
    PyObject *made = filled(&PyTuple_Type, &PyTuple_GET_ITEM(items, 0), size);
    if (made == NULL) {
        return NULL;
    }
    for (Py_ssize_t k = 1; k < nargs; k += 2) {
        Py_ssize_t index = PyLong_AsSsize_t(args[k]);
        PyObject *old = PyTuple_GET_ITEM(made, index);
        Py_INCREF(args[k + 1]);
        PyTuple_SET_ITEM(made, index, args[k + 1]);
        Py_DECREF(old);
    }
    return made;
}

static PyMethodDef tuples_methods[] = {
    {"new", (PyCFunction)(void (*)(void))tuples_new, METH_FASTCALL,
     "new(kind, values): the tuple of class kind (a subclass of tuple) holding values."},
    {"replaced", (PyCFunction)(void (*)(void))tuples_replaced, METH_FASTCALL,
     "replaced(items, index, value, ...): the tuple items with value at index, for each pair."},
    {"of", (PyCFunction)(void (*)(void))tuples_of, METH_FASTCALL,
     "of(kind, *values): the tuple of class kind (a subclass of tuple) holding values."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef tuples_module = {
    PyModuleDef_HEAD_INIT, "arbiter._tuples",
    "Named tuples built from their values in one step (optional).", -1, tuples_methods,
};

PyMODINIT_FUNC
PyInit__tuples(void)
{
    return PyModule_Create(&tuples_module);
}
