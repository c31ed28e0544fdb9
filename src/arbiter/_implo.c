/* arbiter._implo: the board fills an Implo replay makes at every turn, in C.
 *
 * After a stone lands, the engine looks for the patches (empty territories of at most four
 * points) next to it, unless the ring of eight points around it shows there can be none;
 * before each resolution, it finds the owner of a patch and the owner's
 * biggest groups next to it; a resolution puts markers down, removes a group and looks
 * around it; a finished game counts its marker groups. ``arbiter.adjudicator.implo_board``
 * has all four in Python (``placed_patches``, ``options``, ``settle``, ``marker_groups``),
 * which give the rules their reading; these are the same fills on the same board codes,
 * written in C because they run once or more per ply of every Implo record, and compiled
 * Python pays a boxed int and a bounds check per cell read. They return what the Python
 * functions return: ``tests/adjudicator/test_implo_core.py`` compares them on random
 * boards.
 *
 * A board is ``bytes`` or a ``bytearray`` of size * size cells indexed by rank * size + file,
 * 0 for an empty point (see ``implo_board``). Optional: a build without a C compiler leaves
 * it out, and ``implo_board`` runs its Python fills.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define PATCH_MAX 4    /* a territory of at most this many points is a patch */
#define SIZE_MAX_ 32   /* boards up to 32 x 32: more than any Implo board (19 x 19) */
#define CELLS_MAX (SIZE_MAX_ * SIZE_MAX_)

/* The cells of ``board``, which must be bytes or a bytearray of size * size cells. */
static const unsigned char *
board_cells(PyObject *board, Py_ssize_t size)
{
    const char *data;
    Py_ssize_t length;
    if (PyBytes_Check(board)) {
        data = PyBytes_AS_STRING(board);
        length = PyBytes_GET_SIZE(board);
    }
    else if (PyByteArray_Check(board)) {
        data = PyByteArray_AS_STRING(board);
        length = PyByteArray_GET_SIZE(board);
    }
    else {
        PyErr_SetString(PyExc_TypeError, "the board must be bytes or a bytearray");
        return NULL;
    }
    if (length != size * size) {
        PyErr_Format(PyExc_ValueError, "the board has %zd cells, not %zd", length, size * size);
        return NULL;
    }
    return (const unsigned char *)data;
}

/* ``arg`` as an int from ``low`` to ``high``; -1 with an exception set if it is not one. */
static int
read_int(PyObject *arg, Py_ssize_t low, Py_ssize_t high, const char *what, Py_ssize_t *out)
{
    if (!PyLong_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int", what);
        return -1;
    }
    Py_ssize_t value = PyLong_AsSsize_t(arg);
    if (value == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        value = low - 1; /* too big for a Py_ssize_t: out of range below */
    }
    if (value < low || value > high) {
        PyErr_Format(PyExc_ValueError, "%s must be from %zd to %zd", what, low, high);
        return -1;
    }
    *out = value;
    return 0;
}

/* The board every function here takes first, with its size second: its cells, and the size
 * in ``size``; NULL with an exception set if either is not one. */
static const unsigned char *
sized_board(PyObject *const *args, Py_ssize_t *size)
{
    if (read_int(args[1], 1, SIZE_MAX_, "the size", size) < 0) {
        return NULL;
    }
    return board_cells(args[0], *size);
}

/* The orthogonal neighbours of ``p`` on the board, in the order of ``Geometry.neighbours``
 * (east, west, north, south); returns how many there are. */
static int
neighbours(Py_ssize_t p, Py_ssize_t size, Py_ssize_t out[4])
{
    int count = 0;
    Py_ssize_t file = p % size;
    if (file + 1 < size) {
        out[count++] = p + 1;
    }
    if (file > 0) {
        out[count++] = p - 1;
    }
    if (p + size < size * size) {
        out[count++] = p + size;
    }
    if (p >= size) {
        out[count++] = p - size;
    }
    return count;
}

static int
holds(const Py_ssize_t *points, Py_ssize_t count, Py_ssize_t point)
{
    for (Py_ssize_t i = 0; i < count; i++) {
        if (points[i] == point) {
            return 1;
        }
    }
    return 0;
}

static void
sort_points(Py_ssize_t *points, Py_ssize_t count)
{
    for (Py_ssize_t i = 1; i < count; i++) { /* insertion sort: groups are small */
        Py_ssize_t point = points[i], j = i;
        while (j > 0 && points[j - 1] > point) {
            points[j] = points[j - 1];
            j--;
        }
        points[j] = point;
    }
}

/* The points as a new tuple (``as_tuple``) or list of ints. */
static PyObject *
int_sequence(const Py_ssize_t *points, Py_ssize_t count, int as_tuple)
{
    PyObject *made = as_tuple ? PyTuple_New(count) : PyList_New(count);
    if (made == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *point = PyLong_FromSsize_t(points[i]);
        if (point == NULL) {
            Py_DECREF(made);
            return NULL;
        }
        if (as_tuple) {
            PyTuple_SET_ITEM(made, i, point);
        }
        else {
            PyList_SET_ITEM(made, i, point);
        }
    }
    return made;
}

/* For each set of empty points around a point (bit i for the i-th step of RING, going round),
 * whether it shows every empty neighbour of the point to lie in a territory too big to be a
 * patch: ``implo_board.OPEN_RINGS``, made by the same rule at import. */
static unsigned char open_rings[256];
static const int RING[8][2] = {{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}};

/* Whether every neighbour set in ``mask`` lies in a run of more than PATCH_MAX set bits, going
 * round (consecutive points of the ring are next to each other). */
static int
open_ring(int mask)
{
    if (mask == 255) {
        return 1;
    }
    int start = 0; /* a clear bit */
    while (mask >> start & 1) {
        start++;
    }
    int run = 0, neighbour = 0;
    for (int step = 1; step < 9; step++) { /* round the ring, back to start */
        int k = (start + step) % 8;
        if (mask >> k & 1) {
            run++;
            neighbour = neighbour || k % 2 == 0;
        }
        else {
            if (neighbour && run <= PATCH_MAX) {
                return 0;
            }
            run = 0;
            neighbour = 0;
        }
    }
    return 1;
}

/* Whether the ring test shows that the stone on ``at`` makes no patch: eight reads, no fill
 * (a point past the edge counts as taken, as the stone's own point does). */
static int
surrounded_openly(const unsigned char *cells, Py_ssize_t size, Py_ssize_t at)
{
    Py_ssize_t file = at % size, rank = at / size;
    int mask = 0;
    for (int i = 0; i < 8; i++) {
        Py_ssize_t f = file + RING[i][0], r = rank + RING[i][1];
        if (0 <= f && f < size && 0 <= r && r < size && !cells[r * size + f]) {
            mask |= 1 << i;
        }
    }
    return open_rings[mask];
}

/* patches(board, size, at): the patches next to ``at``, where a stone just landed, each a
 * sorted tuple, in the order ``implo_board.placed_patches`` finds them: none at once when the
 * ring test says so, else one fill per piece of the territory that held ``at``, stopped past
 * PATCH_MAX points; a fill that meets a point of an earlier one is in a piece already found
 * too big. */
static PyObject *
find_patches(const unsigned char *cells, Py_ssize_t size, Py_ssize_t at)
{
    PyObject *pending = PyList_New(0);
    if (pending == NULL || (cells[at] && surrounded_openly(cells, size, at))) {
        return pending;
    }
    /* The points each fill met, marked with the fill's number (1 to 4): a point marked by an
     * earlier fill is in a piece already explored. On the stack: another thread may run this
     * while one waits for an allocation. */
    unsigned char marks[CELLS_MAX];
    memset(marks, 0, (size_t)(size * size));
    Py_ssize_t starts[4];
    int start_count = neighbours(at, size, starts);
    unsigned char fill = 0;
    for (int s = 0; s < start_count; s++) {
        Py_ssize_t start = starts[s];
        if (cells[start] || marks[start]) {
            continue;
        }
        fill++;
        Py_ssize_t members[PATCH_MAX], count = 1;
        members[0] = start;
        marks[start] = fill;
        int small = 1;
        for (Py_ssize_t i = 0; small && i < count; i++) {
            Py_ssize_t around[4];
            int around_count = neighbours(members[i], size, around);
            for (int j = 0; j < around_count; j++) {
                Py_ssize_t q = around[j];
                if (cells[q] || marks[q] == fill) {
                    continue;
                }
                if (count == PATCH_MAX || marks[q]) { /* too big, or met by an earlier fill */
                    small = 0;
                    break;
                }
                marks[q] = fill;
                members[count++] = q;
            }
        }
        if (small) {
            sort_points(members, count);
            PyObject *patch = int_sequence(members, count, 1);
            if (patch == NULL || PyList_Append(pending, patch) < 0) {
                Py_XDECREF(patch);
                Py_DECREF(pending);
                return NULL;
            }
            Py_DECREF(patch);
        }
    }
    return pending;
}

static PyObject *
implo_patches(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "patches() takes 3 arguments (%zd given)", nargs);
        return NULL;
    }
    Py_ssize_t size, at;
    const unsigned char *cells = sized_board(args, &size);
    if (cells == NULL || read_int(args[2], 0, size * size - 1, "the point", &at) < 0) {
        return NULL;
    }
    return find_patches(cells, size, at);
}

/* place(board, size, at, stone): the board with ``stone`` (a code) on ``at`` (a new bytes)
 * and the patches it makes, as ``patches`` finds them: a placement's two steps in one call. */
static PyObject *
implo_place(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "place() takes 4 arguments (%zd given)", nargs);
        return NULL;
    }
    Py_ssize_t size, at, stone;
    const unsigned char *cells = sized_board(args, &size);
    if (cells == NULL || read_int(args[2], 0, size * size - 1, "the point", &at) < 0 ||
        read_int(args[3], 1, 255, "a stone code", &stone) < 0) {
        return NULL;
    }
    PyObject *placed = PyBytes_FromStringAndSize((const char *)cells, size * size);
    if (placed == NULL) {
        return NULL;
    }
    unsigned char *after = (unsigned char *)PyBytes_AS_STRING(placed);
    after[at] = (unsigned char)stone;
    PyObject *pending = find_patches(after, size, at);
    if (pending == NULL) {
        Py_DECREF(placed);
        return NULL;
    }
    PyObject *found = PyTuple_New(2);
    if (found == NULL) {
        Py_DECREF(placed);
        Py_DECREF(pending);
        return NULL;
    }
    PyTuple_SET_ITEM(found, 0, placed);
    PyTuple_SET_ITEM(found, 1, pending);
    return found;
}

/* options(cells, size, patch, mover, black, white): the owner of ``patch`` (0 or 1) and the
 * owner's biggest groups next to it, each a sorted list, the list ordered by lowest stone;
 * ``black`` and ``white`` are the two colours' stone codes. As ``implo_board.options``: the
 * biggest adjacent group of each colour decides, a tie goes to the mover's opponent. */
static PyObject *
implo_options(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6) {
        PyErr_Format(PyExc_TypeError, "options() takes 6 arguments (%zd given)", nargs);
        return NULL;
    }
    Py_ssize_t size, mover, stones[2];
    const unsigned char *cells = sized_board(args, &size);
    if (cells == NULL || read_int(args[3], 0, 1, "the mover", &mover) < 0 ||
        read_int(args[4], 1, 255, "a stone code", &stones[0]) < 0 ||
        read_int(args[5], 1, 255, "a stone code", &stones[1]) < 0) {
        return NULL;
    }
    PyObject *patch = args[2];
    if (!PyTuple_Check(patch)) {
        PyErr_SetString(PyExc_TypeError, "the patch must be a tuple of points");
        return NULL;
    }
    Py_ssize_t points = size * size;
    enum { FREE, IN_PATCH, GROUPED };
    unsigned char mark[CELLS_MAX];
    memset(mark, FREE, (size_t)points);
    Py_ssize_t patch_count = PyTuple_GET_SIZE(patch);
    for (Py_ssize_t i = 0; i < patch_count; i++) {
        Py_ssize_t p;
        if (read_int(PyTuple_GET_ITEM(patch, i), 0, points - 1, "a patch point", &p) < 0) {
            return NULL;
        }
        mark[p] = IN_PATCH;
    }
    /* The stones next to the patch, each once; their groups, each filled once, kept one
     * after another in ``grouped`` (start and length by group). */
    Py_ssize_t grouped[CELLS_MAX], starts[CELLS_MAX], lengths[CELLS_MAX], filled = 0;
    int colours[CELLS_MAX];
    Py_ssize_t groups = 0, biggest[2] = {0, 0};
    for (Py_ssize_t i = 0; i < patch_count; i++) {
        Py_ssize_t around[4], p = PyLong_AsSsize_t(PyTuple_GET_ITEM(patch, i));
        int around_count = neighbours(p, size, around);
        for (int j = 0; j < around_count; j++) {
            Py_ssize_t q = around[j];
            unsigned char stone = cells[q];
            int colour = stone == stones[0] ? 0 : stone == stones[1] ? 1 : -1;
            if (mark[q] != FREE || colour < 0) {
                continue;
            }
            Py_ssize_t first = filled;
            mark[q] = GROUPED;
            grouped[filled++] = q;
            for (Py_ssize_t k = first; k < filled; k++) { /* grows while it is walked */
                Py_ssize_t next[4];
                int next_count = neighbours(grouped[k], size, next);
                for (int n = 0; n < next_count; n++) {
                    Py_ssize_t y = next[n];
                    if (cells[y] == stone && mark[y] != GROUPED) {
                        mark[y] = GROUPED;
                        grouped[filled++] = y;
                    }
                }
            }
            starts[groups] = first;
            lengths[groups] = filled - first;
            colours[groups] = colour;
            groups++;
            if (filled - first > biggest[colour]) {
                biggest[colour] = filled - first;
            }
        }
    }
    int owner = biggest[0] > biggest[1] ? 0 : biggest[1] > biggest[0] ? 1 : (int)(1 - mover);
    /* The owner's groups of its biggest size, each sorted, ordered by lowest stone. */
    Py_ssize_t tops[CELLS_MAX], top_count = 0;
    for (Py_ssize_t g = 0; g < groups; g++) {
        if (colours[g] == owner && lengths[g] == biggest[owner]) {
            sort_points(grouped + starts[g], lengths[g]);
            Py_ssize_t t = top_count++;
            while (t > 0 && grouped[starts[tops[t - 1]]] > grouped[starts[g]]) {
                tops[t] = tops[t - 1];
                t--;
            }
            tops[t] = g;
        }
    }
    PyObject *listed = PyList_New(top_count);
    if (listed == NULL) {
        return NULL;
    }
    for (Py_ssize_t t = 0; t < top_count; t++) {
        PyObject *group = int_sequence(grouped + starts[tops[t]], lengths[tops[t]], 0);
        if (group == NULL) {
            Py_DECREF(listed);
            return NULL;
        }
        PyList_SET_ITEM(listed, t, group);
    }
    PyObject *found = PyTuple_New(2), *who = PyLong_FromLong(owner);
    if (found == NULL || who == NULL) {
        Py_XDECREF(found);
        Py_XDECREF(who);
        Py_DECREF(listed);
        return NULL;
    }
    PyTuple_SET_ITEM(found, 0, who);
    PyTuple_SET_ITEM(found, 1, listed);
    return found;
}

/* The points of ``points`` (a tuple or a list of ints, each on a board of ``count`` points)
 * into ``out``; returns how many, or -1 with an exception set. */
static Py_ssize_t
read_points(PyObject *points, Py_ssize_t count, Py_ssize_t *out, const char *what)
{
    if (!PyTuple_Check(points) && !PyList_Check(points)) {
        PyErr_Format(PyExc_TypeError, "%s must be a tuple or a list of points", what);
        return -1;
    }
    Py_ssize_t length = PySequence_Fast_GET_SIZE(points);
    if (length > count) {
        PyErr_Format(PyExc_ValueError, "%s has more points than the board", what);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(points);
    for (Py_ssize_t i = 0; i < length; i++) {
        if (read_int(items[i], 0, count - 1, "a point", &out[i]) < 0) {
            return -1;
        }
    }
    return length;
}

/* settle(cells, size, patch, marker, group): ``marker`` on every point of ``patch`` and
 * every stone of ``group`` removed, on ``cells`` (a bytearray); returns whether an empty
 * point outside ``group`` touches it, as ``implo_board.settle`` does. */
static PyObject *
implo_settle(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError, "settle() takes 5 arguments (%zd given)", nargs);
        return NULL;
    }
    if (!PyByteArray_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "the board must be a bytearray");
        return NULL;
    }
    Py_ssize_t size, marker, patch[CELLS_MAX], group[CELLS_MAX];
    if (sized_board(args, &size) == NULL ||
        read_int(args[3], 0, 255, "the marker", &marker) < 0) {
        return NULL;
    }
    Py_ssize_t points = size * size;
    Py_ssize_t patch_count = read_points(args[2], points, patch, "the patch");
    if (patch_count < 0) {
        return NULL;
    }
    Py_ssize_t group_count = read_points(args[4], points, group, "the group");
    if (group_count < 0) {
        return NULL;
    }
    unsigned char *cells = (unsigned char *)PyByteArray_AS_STRING(args[0]);
    for (Py_ssize_t i = 0; i < patch_count; i++) {
        cells[patch[i]] = (unsigned char)marker;
    }
    for (Py_ssize_t i = 0; i < group_count; i++) {
        cells[group[i]] = 0;
    }
    for (Py_ssize_t i = 0; i < group_count; i++) {
        Py_ssize_t around[4];
        int around_count = neighbours(group[i], size, around);
        for (int j = 0; j < around_count; j++) {
            if (!cells[around[j]] && !holds(group, group_count, around[j])) {
                Py_RETURN_TRUE;
            }
        }
    }
    Py_RETURN_FALSE;
}

/* Add one group of ``found`` points to ``counts``, a dict of counts by group size. */
static int
count_group(PyObject *counts, Py_ssize_t found)
{
    PyObject *key = PyLong_FromSsize_t(found);
    if (key == NULL) {
        return -1;
    }
    PyObject *had = PyDict_GetItemWithError(counts, key);
    if (had == NULL && PyErr_Occurred()) {
        Py_DECREF(key);
        return -1;
    }
    PyObject *now = PyLong_FromSsize_t(had == NULL ? 1 : PyLong_AsSsize_t(had) + 1);
    int status = now == NULL ? -1 : PyDict_SetItem(counts, key, now);
    Py_DECREF(key);
    Py_XDECREF(now);
    return status;
}

/* marker_groups(board, size, black, white): the number of marker groups of each size, for
 * each colour (its marker code given), as two dicts, as ``implo_board.marker_groups``. */
static PyObject *
implo_marker_groups(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "marker_groups() takes 4 arguments (%zd given)", nargs);
        return NULL;
    }
    Py_ssize_t size, markers[2];
    const unsigned char *cells = sized_board(args, &size);
    if (cells == NULL || read_int(args[2], 1, 255, "a marker code", &markers[0]) < 0 ||
        read_int(args[3], 1, 255, "a marker code", &markers[1]) < 0) {
        return NULL;
    }
    PyObject *counts = Py_BuildValue("({}{})");
    if (counts == NULL) {
        return NULL;
    }
    Py_ssize_t points = size * size, group[CELLS_MAX];
    unsigned char met[CELLS_MAX];
    memset(met, 0, (size_t)points);
    for (Py_ssize_t p = 0; p < points; p++) {
        unsigned char marker = cells[p];
        int colour = marker == markers[0] ? 0 : marker == markers[1] ? 1 : -1;
        if (colour < 0 || met[p]) {
            continue;
        }
        Py_ssize_t found = 1;
        met[p] = 1;
        group[0] = p;
        for (Py_ssize_t i = 0; i < found; i++) { /* grows while it is walked */
            Py_ssize_t around[4];
            int around_count = neighbours(group[i], size, around);
            for (int j = 0; j < around_count; j++) {
                Py_ssize_t q = around[j];
                if (cells[q] == marker && !met[q]) {
                    met[q] = 1;
                    group[found++] = q;
                }
            }
        }
        if (count_group(PyTuple_GET_ITEM(counts, colour), found) < 0) {
            Py_DECREF(counts);
            return NULL;
        }
    }
    return counts;
}

static PyMethodDef implo_methods[] = {
    {"patches", (PyCFunction)(void (*)(void))implo_patches, METH_FASTCALL,
     "patches(board, size, at): the patches next to at, where a stone just landed."},
    {"place", (PyCFunction)(void (*)(void))implo_place, METH_FASTCALL,
     "place(board, size, at, stone): the board with stone on at, and the patches it makes."},
    {"options", (PyCFunction)(void (*)(void))implo_options, METH_FASTCALL,
     "options(cells, size, patch, mover, black, white): the owner of patch and the owner's "
     "biggest groups next to it."},
    {"settle", (PyCFunction)(void (*)(void))implo_settle, METH_FASTCALL,
     "settle(cells, size, patch, marker, group): marker on patch, group removed; whether an "
     "empty point outside group touches it."},
    {"marker_groups", (PyCFunction)(void (*)(void))implo_marker_groups, METH_FASTCALL,
     "marker_groups(board, size, black, white): marker groups by size, for each colour."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef implo_module = {
    PyModuleDef_HEAD_INIT, "arbiter._implo",
    "Implo's board fills in C (optional; implo_board has them in Python).", -1, implo_methods,
};

PyMODINIT_FUNC
PyInit__implo(void)
{
    for (int mask = 0; mask < 256; mask++) {
        open_rings[mask] = (unsigned char)open_ring(mask);
    }
    return PyModule_Create(&implo_module);
}
