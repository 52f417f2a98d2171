/* The backward walk on arrays, compiled: the twin of two loops of engine/backward.py.
 *
 *   count(roots, accumulate)  ->  (dependencies, hooked), or None
 *       `_count_dependencies` without targets: how many edges reach each node from the
 *       roots, and whether any node has hooks. None when a node is not as the engine makes
 *       them (engine/backward.py then counts in Python, which says what is wrong).
 *   walk(roots, grads, dependencies, retain_graph, accumulate, no_grads, send, run_hooked,
 *        count_message, on_node)  ->  None
 *       The loop of `run_backward` when gradients pass as numpy arrays: seed the roots, then
 *       run the ready node created last until none is ready. `on_node` (or None) is an
 *       observer's `on_backward_node`, told of each node after it ran.
 *
 * engine/backward.py keeps the Python loops as the description and the fallback (without a
 * C compiler agraph runs them); tests/test_engine_compiled.py checks that both run the same
 * nodes in the same order with the same gradients. The nodes' own work (`apply_arrays`,
 * `release`, adding two gradients in `send`, a node that gained hooks) is Python, called from
 * here. What this file saves is the loop itself: a training step's backward spent half its
 * time in it (benchmarks/bench_ops.py prints both walks).
 *
 * The ready queue orders nodes by (-sequence_nr, order pushed), as the Python loop's heap of
 * (-sequence_nr, next_sequence(), node) does: every key differs, so any correct priority queue
 * pops them in the same order.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

typedef struct {
    long long key;   /* -sequence_nr */
    long long order; /* when it was pushed: equal keys run first pushed, first run */
    PyObject *node;  /* a new reference */
} Entry;

typedef struct {
    Entry *items;
    Py_ssize_t size, capacity;
    long long pushed;
} Queue;

static PyObject *s_hooked, *s_variable, *s_hooks, *s_next_functions, *s_sequence_nr,
    *s_apply_arrays, *s_release;

static int before(const Entry *a, const Entry *b)
{
    return a->key < b->key || (a->key == b->key && a->order < b->order);
}

static int sequence_key(PyObject *node, long long *key)
{
    PyObject *value = PyObject_GetAttr(node, s_sequence_nr);
    long long number;
    if (value == NULL)
        return -1;
    number = PyLong_AsLongLong(value);
    Py_DECREF(value);
    if (number == -1 && PyErr_Occurred())
        return -1;
    *key = -number;
    return 0;
}

static int push(Queue *queue, PyObject *node)
{
    Entry entry;
    Py_ssize_t i;
    if (sequence_key(node, &entry.key) < 0)
        return -1;
    if (queue->size == queue->capacity) {
        Py_ssize_t capacity = queue->capacity ? queue->capacity * 2 : 16;
        Entry *items = PyMem_Realloc(queue->items, (size_t)capacity * sizeof(Entry));
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        queue->items = items;
        queue->capacity = capacity;
    }
    entry.order = queue->pushed++;
    entry.node = node;
    Py_INCREF(node);
    for (i = queue->size++; i > 0; i = (i - 1) / 2) {
        Entry *parent = &queue->items[(i - 1) / 2];
        if (!before(&entry, parent))
            break;
        queue->items[i] = *parent;
    }
    queue->items[i] = entry;
    return 0;
}

/* The first node; the reference passes to the caller. */
static PyObject *pop(Queue *queue)
{
    PyObject *top = queue->items[0].node;
    Entry last = queue->items[--queue->size];
    Py_ssize_t i = 0, size = queue->size;
    while (2 * i + 1 < size) {
        Py_ssize_t child = 2 * i + 1;
        if (child + 1 < size && before(&queue->items[child + 1], &queue->items[child]))
            child++;
        if (!before(&queue->items[child], &last))
            break;
        queue->items[i] = queue->items[child];
        i = child;
    }
    if (size)
        queue->items[i] = last;
    return top;
}

static void clear(Queue *queue)
{
    while (queue->size)
        Py_DECREF(queue->items[--queue->size].node);
    PyMem_Free(queue->items);
    queue->items = NULL;
}

/* node.hooked, or (an AccumulateGrad) its leaf's hooks: 1, 0, or -1 with an error */
static int has_hooks(PyObject *node, PyObject *accumulate)
{
    PyObject *value = PyObject_GetAttr(node, s_hooked);
    int truth;
    if (value == NULL)
        return -1;
    truth = PyObject_IsTrue(value);
    Py_DECREF(value);
    if (truth != 0 || (PyObject *)Py_TYPE(node) != accumulate)
        return truth;
    value = PyObject_GetAttr(node, s_variable);
    if (value != NULL) {
        PyObject *hooks = PyObject_GetAttr(value, s_hooks);
        Py_DECREF(value);
        if (hooks == NULL)
            return -1;
        truth = PyObject_IsTrue(hooks);
        Py_DECREF(hooks);
        return truth;
    }
    return -1;
}

/* node.next_functions, checked to be a tuple of (node or None, int) pairs; NULL (and no
 * error set) when it is something else */
static PyObject *edges_of(PyObject *node)
{
    PyObject *edges = PyObject_GetAttr(node, s_next_functions);
    Py_ssize_t i;
    if (edges == NULL)
        return NULL;
    if (!PyTuple_CheckExact(edges))
        goto irregular;
    for (i = 0; i < PyTuple_GET_SIZE(edges); i++) {
        PyObject *edge = PyTuple_GET_ITEM(edges, i);
        if (!PyTuple_CheckExact(edge) || PyTuple_GET_SIZE(edge) != 2 ||
            !PyLong_CheckExact(PyTuple_GET_ITEM(edge, 1)))
            goto irregular;
    }
    return edges;
irregular:
    Py_DECREF(edges);
    return NULL;
}

static int add_count(PyObject *counts, PyObject *node, long change, long *now)
{
    PyObject *old = PyDict_GetItemWithError(counts, node), *value;
    long count = change;
    int failed;
    if (old != NULL)
        count += PyLong_AsLong(old);
    else if (PyErr_Occurred())
        return -1;
    value = PyLong_FromLong(count);
    if (value == NULL)
        return -1;
    failed = PyDict_SetItem(counts, node, value);
    Py_DECREF(value);
    if (now != NULL)
        *now = count;
    return failed;
}

/* `node` reached by one more edge: counted, and put on `stack` when first reached */
static int reach(PyObject *counts, PyObject *stack, PyObject *node)
{
    switch (PyDict_Contains(counts, node)) {
    case -1:
        return -1;
    case 0:
        if (PyList_Append(stack, node) < 0)
            return -1;
    }
    return add_count(counts, node, 1, NULL);
}

static PyObject *count(PyObject *self, PyObject *args)
{
    PyObject *roots, *accumulate, *counts, *stack, *edges = NULL, *node = NULL;
    Py_ssize_t i, next;
    int hooked = 0;
    long long key;
    if (!PyArg_ParseTuple(args, "O!O", &PyList_Type, &roots, &accumulate))
        return NULL;
    counts = PyDict_New();
    stack = PyList_New(0);
    if (counts == NULL || stack == NULL)
        goto failed;
    for (i = 0; i < PyList_GET_SIZE(roots); i++) {
        PyObject *edge = PyList_GET_ITEM(roots, i);
        if (!PyTuple_CheckExact(edge) || PyTuple_GET_SIZE(edge) != 2)
            goto irregular;
        node = PyTuple_GET_ITEM(edge, 0);
        if (node != Py_None && reach(counts, stack, node) < 0)
            goto failed;
    }
    /* every node reached is in `stack` once, in the order first reached (each counted once
     * per edge; the order does not change the counts) */
    for (next = 0; next < PyList_GET_SIZE(stack); next++) {
        int hooks;
        node = PyList_GET_ITEM(stack, next);
        if (sequence_key(node, &key) < 0) { /* not an int that fits: Python's walk */
            PyErr_Clear();
            goto irregular;
        }
        hooks = has_hooks(node, accumulate);
        if (hooks < 0)
            goto failed;
        hooked |= hooks;
        edges = edges_of(node);
        if (edges == NULL) {
            if (PyErr_Occurred())
                goto failed;
            goto irregular;
        }
        for (i = 0; i < PyTuple_GET_SIZE(edges); i++) {
            PyObject *child = PyTuple_GET_ITEM(PyTuple_GET_ITEM(edges, i), 0);
            if (child != Py_None && reach(counts, stack, child) < 0)
                goto failed;
        }
        Py_CLEAR(edges);
    }
    Py_DECREF(stack);
    return Py_BuildValue("(NO)", counts, hooked ? Py_True : Py_False);
irregular:
    Py_XDECREF(edges);
    Py_XDECREF(counts);
    Py_XDECREF(stack);
    Py_RETURN_NONE;
failed:
    Py_XDECREF(edges);
    Py_XDECREF(counts);
    Py_XDECREF(stack);
    return NULL;
}

/* One gradient into its child's buffer: a first gradient for output 0 here, else `send`;
 * then the child is ready when nothing more is to come. */
static int deliver(PyObject *buffers, PyObject *counts, Queue *queue, PyObject *send,
                   PyObject *child, PyObject *number, PyObject *sent)
{
    long remaining;
    PyObject *buffer = PyDict_GetItemWithError(buffers, child);
    if (buffer == NULL && PyErr_Occurred())
        return -1;
    int overflow;
    if (buffer == NULL && PyLong_AsLongAndOverflow(number, &overflow) == 0 && !overflow) {
        PyObject *first = PyList_New(1);
        int failed;
        if (first == NULL)
            return -1;
        Py_INCREF(sent);
        PyList_SET_ITEM(first, 0, sent);
        failed = PyDict_SetItem(buffers, child, first);
        Py_DECREF(first);
        if (failed < 0)
            return -1;
    } else {
        PyObject *result = PyObject_CallFunctionObjArgs(send, buffers, child, number, sent, NULL);
        if (result == NULL)
            return -1;
        Py_DECREF(result);
    }
    if (PyDict_GetItemWithError(counts, child) == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetObject(PyExc_KeyError, child);
        return -1;
    }
    if (add_count(counts, child, -1, &remaining) < 0)
        return -1;
    return remaining == 0 ? push(queue, child) : 0;
}

static int all_none(PyObject *grads)
{
    Py_ssize_t i;
    for (i = 0; i < PyList_GET_SIZE(grads); i++)
        if (PyList_GET_ITEM(grads, i) != Py_None)
            return 0;
    return 1;
}

/* One node: its gradients out (a new list or tuple), or NULL with an error */
static PyObject *run_node(PyObject *node, PyObject *grads, PyObject *edges, PyObject *accumulate,
                          PyObject *run_hooked, PyObject *count_message)
{
    PyObject *out;
    int hooks = has_hooks(node, accumulate);
    if (hooks < 0)
        return NULL;
    if (hooks) { /* hooks added during this walk (by a custom Function's backward) */
        PyObject *pair = PyObject_CallFunctionObjArgs(run_hooked, node, grads, NULL);
        if (pair == NULL)
            return NULL;
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            Py_DECREF(pair);
            PyErr_SetString(PyExc_TypeError, "run_hooked must return (grads, grads_out)");
            return NULL;
        }
        out = PyTuple_GET_ITEM(pair, 1);
        Py_INCREF(out);
        Py_DECREF(pair);
        return out;
    }
    if (PyList_GET_ITEM(grads, 0) == Py_None && all_none(grads)) { /* nothing to pass on */
        Py_ssize_t i;
        out = PyList_New(PyTuple_GET_SIZE(edges));
        for (i = 0; out != NULL && i < PyTuple_GET_SIZE(edges); i++) {
            Py_INCREF(Py_None);
            PyList_SET_ITEM(out, i, Py_None);
        }
        return out;
    }
    out = PyObject_CallMethodOneArg(node, s_apply_arrays, grads);
    if (out == NULL)
        return NULL;
    if (PyObject_Length(out) != PyTuple_GET_SIZE(edges) &&
        (PyObject *)Py_TYPE(node) != accumulate) {
        PyObject *message;
        if (PyErr_Occurred()) {
            Py_DECREF(out);
            return NULL;
        }
        message = PyObject_CallFunctionObjArgs(count_message, node, out, NULL);
        Py_DECREF(out);
        if (message != NULL) {
            PyErr_SetObject(PyExc_RuntimeError, message);
            Py_DECREF(message);
        }
        return NULL;
    }
    return out;
}

static PyObject *walk(PyObject *self, PyObject *args)
{
    PyObject *roots, *grads, *counts, *accumulate, *no_grads, *send, *run_hooked, *count_message,
        *on_node;
    PyObject *buffers, *node = NULL, *received = NULL, *edges = NULL, *out = NULL, *fast = NULL;
    int retain_graph;
    Py_ssize_t i;
    Queue queue = {NULL, 0, 0, 0};
    if (!PyArg_ParseTuple(args, "O!O!O!pOO!OOOO", &PyList_Type, &roots, &PyList_Type, &grads,
                          &PyDict_Type, &counts, &retain_graph, &accumulate, &PyList_Type,
                          &no_grads, &send, &run_hooked, &count_message, &on_node))
        return NULL;
    if (PyList_GET_SIZE(roots) != PyList_GET_SIZE(grads)) {
        PyErr_SetString(PyExc_ValueError, "one gradient per root");
        return NULL;
    }
    buffers = PyDict_New();
    if (buffers == NULL)
        return NULL;
    for (i = 0; i < PyList_GET_SIZE(roots); i++) {
        PyObject *edge = PyList_GET_ITEM(roots, i), *result;
        long remaining;
        if (!PyTuple_CheckExact(edge) || PyTuple_GET_SIZE(edge) != 2) {
            PyErr_SetString(PyExc_TypeError, "a root is a (node, output_nr) pair");
            goto failed;
        }
        result = PyObject_CallFunctionObjArgs(send, buffers, PyTuple_GET_ITEM(edge, 0),
                                              PyTuple_GET_ITEM(edge, 1),
                                              PyList_GET_ITEM(grads, i), NULL);
        if (result == NULL)
            goto failed;
        Py_DECREF(result);
        if (add_count(counts, PyTuple_GET_ITEM(edge, 0), -1, &remaining) < 0)
            goto failed;
        if (remaining == 0 && push(&queue, PyTuple_GET_ITEM(edge, 0)) < 0)
            goto failed;
    }
    while (queue.size) {
        Py_ssize_t count;
        node = pop(&queue);
        received = PyDict_GetItemWithError(buffers, node);
        if (received != NULL) {
            Py_INCREF(received);
            if (PyDict_DelItem(buffers, node) < 0)
                goto failed;
        } else if (PyErr_Occurred()) {
            goto failed;
        } else {
            received = no_grads;
            Py_INCREF(received);
        }
        edges = edges_of(node);
        if (edges == NULL) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "next_functions changed during backward");
            goto failed;
        }
        out = run_node(node, received, edges, accumulate, run_hooked, count_message);
        if (out == NULL)
            goto failed;
        if (on_node != Py_None) {
            PyObject *result = PyObject_CallFunctionObjArgs(on_node, node, received, out, NULL);
            if (result == NULL)
                goto failed;
            Py_DECREF(result);
        }
        Py_CLEAR(received);
        if (!retain_graph) {
            PyObject *result = PyObject_CallMethodNoArgs(node, s_release);
            if (result == NULL)
                goto failed;
            Py_DECREF(result);
        }
        fast = PySequence_Fast(out, "a node's gradients must be a sequence");
        if (fast == NULL)
            goto failed;
        count = PySequence_Fast_GET_SIZE(fast);
        if (count != PyTuple_GET_SIZE(edges)) {
            PyErr_Format(PyExc_ValueError, "zip() argument 2 is %s than argument 1",
                         count < PyTuple_GET_SIZE(edges) ? "shorter" : "longer");
            goto failed;
        }
        for (i = 0; i < count; i++) {
            PyObject *edge = PyTuple_GET_ITEM(edges, i);
            PyObject *child = PyTuple_GET_ITEM(edge, 0);
            if (child == Py_None)
                continue;
            if (deliver(buffers, counts, &queue, send, child, PyTuple_GET_ITEM(edge, 1),
                        PySequence_Fast_GET_ITEM(fast, i)) < 0)
                goto failed;
        }
        Py_CLEAR(fast);
        Py_CLEAR(out);
        Py_CLEAR(edges);
        Py_CLEAR(node);
    }
    clear(&queue);
    Py_DECREF(buffers);
    Py_RETURN_NONE;
failed:
    Py_XDECREF(fast);
    Py_XDECREF(out);
    Py_XDECREF(edges);
    Py_XDECREF(received);
    Py_XDECREF(node);
    clear(&queue);
    Py_DECREF(buffers);
    return NULL;
}

static PyMethodDef methods[] = {
    {"count", count, METH_VARARGS,
     "count(roots, accumulate) -> (dependencies, hooked), or None for Python's count"},
    {"walk", walk, METH_VARARGS,
     "walk(roots, grads, dependencies, retain_graph, accumulate, no_grads, send, run_hooked, "
     "count_message, on_node): the backward walk on arrays"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_backward_walk",
                                    "engine/backward.py's walk on arrays, compiled.", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__backward_walk(void)
{
    if (!(s_hooked = PyUnicode_InternFromString("hooked")) ||
        !(s_variable = PyUnicode_InternFromString("variable")) ||
        !(s_hooks = PyUnicode_InternFromString("_hooks")) ||
        !(s_next_functions = PyUnicode_InternFromString("next_functions")) ||
        !(s_sequence_nr = PyUnicode_InternFromString("sequence_nr")) ||
        !(s_apply_arrays = PyUnicode_InternFromString("apply_arrays")) ||
        !(s_release = PyUnicode_InternFromString("release")))
        return NULL;
    return PyModule_Create(&module);
}
