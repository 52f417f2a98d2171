/* The C library's math functions over an array, compiled: what `float_math.libm` does through
 * ctypes (float32) or Python's math module (float64), one call per element; engine/float_math.py
 * stays the fallback.
 *
 *   apply(name, x, out)   out[i] = name(x[i]) for name in exp, expm1, log, log1p, tanh, erf:
 *                         expf, logf, ... for float32 buffers, exp, log, ... for float64
 *   names                 those names (a tuple)
 *
 * x and out are C-contiguous buffers of one float dtype and length. It calls the very
 * functions ctypes and the math module call (of the same C library), so the results are the
 * same bits (tests/test_engine_compiled.py); and where the math module raises (log(0),
 * exp(1000)) it gives what C gives and PyTorch computes (-inf, inf). PyTorch's scalar kernels
 * call these where a vectorised kernel leaves a tail, and in binary_cross_entropy: through
 * ctypes each value costs about half a microsecond, here a few nanoseconds. Compiled with
 * -fno-builtin (setup.py): the compiler may not put its own version of a function in place of
 * the library's.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>

typedef float (*Single)(float);
typedef double (*Double)(double);

static const struct {
    const char *name;
    Single single;
    Double twice;
} FUNCTIONS[] = {{"exp", expf, exp},       {"expm1", expm1f, expm1}, {"log", logf, log},
                 {"log1p", log1pf, log1p}, {"tanh", tanhf, tanh},    {"erf", erff, erf}};

static PyObject *apply(PyObject *self, PyObject *args)
{
    const char *name;
    PyObject *source, *target;
    Py_buffer x, out;
    Py_ssize_t i, count;
    size_t k, found = sizeof FUNCTIONS / sizeof FUNCTIONS[0];
    if (!PyArg_ParseTuple(args, "sOO", &name, &source, &target))
        return NULL;
    for (k = 0; k < sizeof FUNCTIONS / sizeof FUNCTIONS[0]; k++)
        if (strcmp(FUNCTIONS[k].name, name) == 0)
            found = k;
    if (found == sizeof FUNCTIONS / sizeof FUNCTIONS[0]) {
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
    if (!x.format || !out.format || strcmp(x.format, out.format) != 0 || x.len != out.len ||
        !((strcmp(x.format, "f") == 0 && x.itemsize == 4) ||
          (strcmp(x.format, "d") == 0 && x.itemsize == 8))) {
        PyBuffer_Release(&x);
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_TypeError, "two C-contiguous float32 or float64 arrays of one "
                                         "dtype and size");
        return NULL;
    }
    count = x.len / x.itemsize;
    if (x.itemsize == 4)
        for (i = 0; i < count; i++)
            ((float *)out.buf)[i] = FUNCTIONS[found].single(((const float *)x.buf)[i]);
    else
        for (i = 0; i < count; i++)
            ((double *)out.buf)[i] = FUNCTIONS[found].twice(((const double *)x.buf)[i]);
    PyBuffer_Release(&x);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"apply", apply, METH_VARARGS, "apply(name, x, out): the C library's name of float x"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_libm",
                                    "engine/float_math.py's libm, compiled.", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__libm(void)
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
