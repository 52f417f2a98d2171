/* The C library's float32 functions over an array, compiled: what `float_math.libm` does for
 * float32 through ctypes, one call per element (engine/float_math.py stays the fallback).
 *
 *   apply(name, x, out)   out[i] = namef(x[i]) for name in exp, expm1, log, log1p, tanh, erf
 *   names                 those names (a tuple)
 *
 * x and out are C-contiguous float32 buffers of one length. It calls the very functions
 * ctypes calls (expf, logf, ... of the C library, loaded from the same libm), so the results
 * are the same bits (tests/test_engine_compiled.py). PyTorch's scalar kernels call them where
 * a vectorised kernel leaves a tail, and in binary_cross_entropy: through ctypes each value
 * costs about half a microsecond, here a few nanoseconds. Compiled with -fno-builtin
 * (setup.py): the compiler may not put its own version of a function in place of the library's.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>

typedef float (*Function)(float);

static const struct {
    const char *name;
    Function function;
} FUNCTIONS[] = {{"exp", expf},     {"expm1", expm1f}, {"log", logf},
                 {"log1p", log1pf}, {"tanh", tanhf},   {"erf", erff}};

static PyObject *apply(PyObject *self, PyObject *args)
{
    const char *name;
    PyObject *source, *target;
    Py_buffer x, out;
    Function function = NULL;
    Py_ssize_t i, count;
    size_t k;
    if (!PyArg_ParseTuple(args, "sOO", &name, &source, &target))
        return NULL;
    for (k = 0; k < sizeof FUNCTIONS / sizeof FUNCTIONS[0]; k++)
        if (strcmp(FUNCTIONS[k].name, name) == 0)
            function = FUNCTIONS[k].function;
    if (function == NULL) {
        PyErr_Format(PyExc_ValueError, "no C library function %s here", name);
        return NULL;
    }
    if (PyObject_GetBuffer(source, &x, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    if (PyObject_GetBuffer(target, &out, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) <
        0) {
        PyBuffer_Release(&x);
        return NULL;
    }
    if (x.itemsize != 4 || out.itemsize != 4 || !x.format || !out.format ||
        strcmp(x.format, "f") != 0 || strcmp(out.format, "f") != 0 || x.len != out.len) {
        PyBuffer_Release(&x);
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_TypeError, "two C-contiguous float32 arrays of one size");
        return NULL;
    }
    count = x.len / 4;
    for (i = 0; i < count; i++)
        ((float *)out.buf)[i] = function(((const float *)x.buf)[i]);
    PyBuffer_Release(&x);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"apply", apply, METH_VARARGS, "apply(name, x, out): the C library's namef of float32 x"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_libm_float",
                                    "engine/float_math.py's libm for float32, compiled.", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__libm_float(void)
{
    size_t count = sizeof FUNCTIONS / sizeof FUNCTIONS[0], k;
    PyObject *names = PyTuple_New((Py_ssize_t)count), *result;
    if (names == NULL)
        return NULL;
    for (k = 0; k < count; k++) {
        PyObject *name = PyUnicode_FromString(FUNCTIONS[k].name);
        if (name == NULL) {
            Py_DECREF(names);
            return NULL;
        }
        PyTuple_SET_ITEM(names, (Py_ssize_t)k, name);
    }
    result = PyModule_Create(&module);
    if (result == NULL || PyModule_AddObject(result, "names", names) < 0) {
        Py_XDECREF(result);
        Py_DECREF(names);
        return NULL;
    }
    return result;
}
