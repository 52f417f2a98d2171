/* One call of MKL's cblas_sgemm or cblas_dgemm on numpy arrays, without ctypes.
 *
 * engine/ops/mkl.py decides how ATen lays a product out for MKL (which operand is transposed,
 * the leading dimensions) and calls MKL through ctypes; an nn.Linear makes several products a
 * training step, and ctypes' conversion of fourteen arguments plus the three buffer addresses
 * cost about 3.5 us around 1-2 us of MKL for a small layer. This module makes the same call from
 * C: the caller passes the function's address (from ctypes, where mkl.py loaded MKL), the
 * arrays and the numbers, and gets the same bits (it is the same function with the same
 * arguments). Optional, like engine/ops/cascade_sum.c: without it mkl.py calls through ctypes.
 *
 * Every operand is checked to hold the memory the call reads or writes (its leading dimension
 * and sizes against the array's extent), so a wrong argument is an exception, never a read or
 * a write outside the arrays. MKL runs with the GIL released, as under ctypes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define COLUMN_MAJOR 102
#define NO_TRANSPOSE 111
#define TRANSPOSE 112

typedef void (*sgemm_t)(int, int, int, int, int, int, float, const float *, int, const float *,
                        int, float, float *, int);
typedef void (*dgemm_t)(int, int, int, int, int, int, double, const double *, int,
                        const double *, int, double, double *, int);

/* How many elements from the buffer's start its last element is, plus one (0: unusable). */
static Py_ssize_t extent(const Py_buffer *view)
{
    Py_ssize_t span = 1;
    int i;
    for (i = 0; i < view->ndim; i++) {
        if (view->shape[i] == 0)
            return 0;
        if (view->strides[i] < 0 || view->strides[i] % view->itemsize != 0)
            return 0;
        span += (view->shape[i] - 1) * (view->strides[i] / view->itemsize);
    }
    return span;
}

/* Elements a column-major `rows` x `cols` matrix with leading dimension `ld` spans. */
static int fits(const Py_buffer *view, int rows, int cols, int ld)
{
    return rows > 0 && cols > 0 && ld >= rows
           && (Py_ssize_t)(cols - 1) * ld + rows <= extent(view);
}

static PyObject *gemm(PyObject *module, PyObject *args)
{
    unsigned long long address;
    int trans_a, trans_b, rows, cols, depth, lda, ldb, ldc, ok;
    double alpha, beta;
    PyObject *a_object, *b_object, *c_object;
    Py_buffer a, b, c;
    (void)module;
    if (!PyArg_ParseTuple(args, "KiiiiidOiOidOi:gemm", &address, &trans_a, &trans_b, &rows,
                          &cols, &depth, &alpha, &a_object, &lda, &b_object, &ldb, &beta,
                          &c_object, &ldc))
        return NULL;
    if (PyObject_GetBuffer(a_object, &a, PyBUF_RECORDS_RO) < 0)
        return NULL;
    if (PyObject_GetBuffer(b_object, &b, PyBUF_RECORDS_RO) < 0) {
        PyBuffer_Release(&a);
        return NULL;
    }
    if (PyObject_GetBuffer(c_object, &c, PyBUF_RECORDS) < 0) {
        PyBuffer_Release(&a);
        PyBuffer_Release(&b);
        return NULL;
    }
    ok = address != 0 && a.format && b.format && c.format && strcmp(a.format, c.format) == 0
         && strcmp(b.format, c.format) == 0 && a.itemsize == c.itemsize
         && b.itemsize == c.itemsize
         && ((strcmp(c.format, "f") == 0 && c.itemsize == 4)
             || (strcmp(c.format, "d") == 0 && c.itemsize == 8))
         && (trans_a == NO_TRANSPOSE || trans_a == TRANSPOSE)
         && (trans_b == NO_TRANSPOSE || trans_b == TRANSPOSE)
         /* op(A) is rows x depth, op(B) depth x cols, C rows x cols, all column-major */
         && (trans_a == NO_TRANSPOSE ? fits(&a, rows, depth, lda) : fits(&a, depth, rows, lda))
         && (trans_b == NO_TRANSPOSE ? fits(&b, depth, cols, ldb) : fits(&b, cols, depth, ldb))
         && fits(&c, rows, cols, ldc);
    if (ok) {
        void *function = (void *)(uintptr_t)address;
        Py_BEGIN_ALLOW_THREADS
        if (c.itemsize == 4)
            ((sgemm_t)function)(COLUMN_MAJOR, trans_a, trans_b, rows, cols, depth, (float)alpha,
                                a.buf, lda, b.buf, ldb, (float)beta, c.buf, ldc);
        else
            ((dgemm_t)function)(COLUMN_MAJOR, trans_a, trans_b, rows, cols, depth, alpha,
                                a.buf, lda, b.buf, ldb, beta, c.buf, ldc);
        Py_END_ALLOW_THREADS
    } else {
        PyErr_SetString(PyExc_ValueError,
                        "gemm: the arrays are not float32 or float64 alike, or do not hold the "
                        "matrices the sizes and leading dimensions describe");
    }
    PyBuffer_Release(&a);
    PyBuffer_Release(&b);
    PyBuffer_Release(&c);
    if (!ok)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"gemm", gemm, METH_VARARGS,
     "gemm(address, trans_a, trans_b, rows, cols, depth, alpha, a, lda, b, ldb, beta, c, ldc): "
     "cblas_?gemm at `address`, column-major, on the arrays' memory."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef definition = {
    PyModuleDef_HEAD_INIT, "_mkl_gemm",
    "MKL's gemm called on numpy arrays without ctypes (see engine/ops/mkl.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__mkl_gemm(void)
{
    return PyModule_Create(&definition);
}
