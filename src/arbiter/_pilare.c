/* arbiter._pilare: a Pilare sowing, in C.
 *
 * Every ply of a Pilare record lifts a stack and drops its men one by one along the path,
 * bottom man first. ``arbiter.adjudicator.pilare._sown`` does that in Python, and says why a
 * path is illegal; ``sow`` here does the same walk on the same board (a tuple of stacks, each
 * a string of men, bottom first) for a path that is legal, and returns None for any other, so
 * that the Python code finds and words the error. It runs for every ply of every Pilare
 * record replayed, where compiled Python pays a lookup, a string object and a bounds check
 * for each step. ``tests/adjudicator/test_pilare_core.py`` holds it to the Python walk.
 *
 * Optional: a build without a C compiler leaves it out, and ``pilare`` sows in Python.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define SIDE_MAX 32 /* boards up to 32 x 32: more than any Pilare board (8 x 8) */
#define CELLS_MAX (SIDE_MAX * SIDE_MAX)

/* The direction a path letter names, in the order of ``pilare.DIRECTIONS`` ("ensw": d and
 * 3 - d are opposite), or -1. */
static int
direction(Py_UCS4 letter)
{
    switch (letter) {
    case 'e':
        return 0;
    case 'n':
        return 1;
    case 's':
        return 2;
    case 'w':
        return 3;
    default:
        return -1;
    }
}

/* The square one step from ``here`` in direction ``d``, or -1 past the edge. */
static Py_ssize_t
step_from(Py_ssize_t here, int d, Py_ssize_t size)
{
    Py_ssize_t file = here % size, rank = here / size;
    switch (d) {
    case 0:
        return file + 1 < size ? here + 1 : -1;
    case 1:
        return rank + 1 < size ? here + size : -1;
    case 2:
        return rank > 0 ? here - size : -1;
    default:
        return file > 0 ? here - 1 : -1;
    }
}

/* ``stack`` with ``man`` on top: a new ASCII string. */
static PyObject *
topped_with(PyObject *stack, Py_UCS1 man)
{
    Py_ssize_t height = PyUnicode_GET_LENGTH(stack);
    PyObject *made = PyUnicode_New(height + 1, 127);
    if (made == NULL) {
        return NULL;
    }
    Py_UCS1 *data = PyUnicode_1BYTE_DATA(made);
    memcpy(data, PyUnicode_1BYTE_DATA(stack), (size_t)height);
    data[height] = man;
    return made;
}

static int
is_ascii(PyObject *text)
{
    return PyUnicode_Check(text) && PyUnicode_IS_COMPACT_ASCII(text);
}

/* sow(board, size, start, path, red, black, red_topped, black_topped): the board after the
 * stack on ``start`` is sown along ``path`` (a new tuple) and the stacks then topped by each
 * colour (``red`` and ``black`` are their men, one letter each), as ``pilare._sown`` gives
 * them; None where the path is not one that function accepts, or the board is not one of
 * ASCII stacks. */
static PyObject *
pilare_sow(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 8) {
        PyErr_Format(PyExc_TypeError, "sow() takes 8 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *board = args[0], *path = args[3], *red = args[4], *black = args[5];
    if (!PyTuple_Check(board) || !PyLong_Check(args[1]) || !PyLong_Check(args[2]) ||
        !PyUnicode_Check(path) || !is_ascii(red) || !is_ascii(black) ||
        PyUnicode_GET_LENGTH(red) != 1 || PyUnicode_GET_LENGTH(black) != 1 ||
        !PyLong_Check(args[6]) || !PyLong_Check(args[7])) {
        PyErr_SetString(PyExc_TypeError,
                        "sow(board: tuple, size: int, start: int, path: str, red: str, "
                        "black: str, red_topped: int, black_topped: int)");
        return NULL;
    }
    Py_ssize_t size = PyLong_AsSsize_t(args[1]), start = PyLong_AsSsize_t(args[2]);
    Py_ssize_t counts[2] = {PyLong_AsSsize_t(args[6]), PyLong_AsSsize_t(args[7])};
    if (PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "sow(): a number is far too large");
        }
        return NULL;
    }
    if (size < 1 || size > SIDE_MAX || PyTuple_GET_SIZE(board) != size * size || start < 0 ||
        start >= size * size) {
        PyErr_SetString(PyExc_ValueError, "sow(): the board, its size or the start disagree");
        return NULL;
    }
    Py_ssize_t points = size * size;
    PyObject *stack = PyTuple_GET_ITEM(board, start);
    if (!is_ascii(stack) || PyUnicode_GET_LENGTH(stack) == 0 ||
        PyUnicode_GET_LENGTH(path) != PyUnicode_GET_LENGTH(stack)) {
        Py_RETURN_NONE;
    }
    Py_ssize_t height = PyUnicode_GET_LENGTH(stack);
    Py_UCS1 men[2] = {PyUnicode_1BYTE_DATA(red)[0], PyUnicode_1BYTE_DATA(black)[0]};
    const Py_UCS1 *lifted = PyUnicode_1BYTE_DATA(stack);
    /* The lifted stack's top was counted as topping its square. */
    counts[lifted[height - 1] == men[0] ? 0 : 1]--;
    /* The stacks as they become: borrowed from ``board`` until a man lands on one. */
    PyObject *cells[CELLS_MAX];
    unsigned char made[CELLS_MAX];
    memset(made, 0, (size_t)points);
    for (Py_ssize_t i = 0; i < points; i++) {
        cells[i] = PyTuple_GET_ITEM(board, i);
    }
    PyObject *empty = PyUnicode_New(0, 127);
    if (empty == NULL) {
        return NULL;
    }
    cells[start] = empty;
    made[start] = 1;
    Py_ssize_t here = start;
    int previous = 4; /* no previous step */
    PyObject *result = NULL;
    for (Py_ssize_t step = 0; step < height; step++) {
        int d = direction(PyUnicode_READ_CHAR(path, step));
        Py_ssize_t target = d < 0 || d == 3 - previous ? -1 : step_from(here, d, size);
        PyObject *below = target < 0 ? NULL : cells[target];
        if (below == NULL || !is_ascii(below)) {
            result = Py_None; /* Python words the error, or reads what is not a stack */
            Py_INCREF(result);
            goto done;
        }
        Py_ssize_t under = PyUnicode_GET_LENGTH(below);
        if (under) {
            Py_UCS1 top = PyUnicode_1BYTE_DATA(below)[under - 1];
            if (top == men[0]) {
                counts[0]--;
            }
            else if (top == men[1]) {
                counts[1]--;
            }
        }
        Py_UCS1 man = lifted[step];
        PyObject *now = topped_with(below, man);
        if (now == NULL) {
            goto done;
        }
        if (made[target]) {
            Py_DECREF(below);
        }
        cells[target] = now;
        made[target] = 1;
        if (man == men[0]) {
            counts[0]++;
        }
        else if (man == men[1]) {
            counts[1]++;
        }
        here = target;
        previous = d;
    }
    PyObject *after = PyTuple_New(points);
    if (after == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < points; i++) {
        if (!made[i]) {
            Py_INCREF(cells[i]);
        }
        made[i] = 0; /* now the tuple's */
        PyTuple_SET_ITEM(after, i, cells[i]);
    }
    PyObject *red_topped = PyLong_FromSsize_t(counts[0]);
    PyObject *black_topped = PyLong_FromSsize_t(counts[1]);
    PyObject *topped = red_topped && black_topped ? PyTuple_Pack(2, red_topped, black_topped)
                                                  : NULL;
    result = topped == NULL ? NULL : PyTuple_Pack(2, after, topped);
    Py_DECREF(after);
    Py_XDECREF(red_topped);
    Py_XDECREF(black_topped);
    Py_XDECREF(topped);
done:
    for (Py_ssize_t i = 0; i < points; i++) {
        if (made[i]) {
            Py_DECREF(cells[i]);
        }
    }
    return result;
}

static PyMethodDef pilare_methods[] = {
    {"sow", (PyCFunction)(void (*)(void))pilare_sow, METH_FASTCALL,
     "sow(board, size, start, path, red, black, red_topped, black_topped): the board and the "
     "topped counts after a legal sowing, or None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef pilare_module = {
    PyModuleDef_HEAD_INIT, "arbiter._pilare",
    "A Pilare sowing in C (optional; pilare has it in Python).", -1, pilare_methods,
};

PyMODINIT_FUNC
PyInit__pilare(void)
{
    return PyModule_Create(&pilare_module);
}
