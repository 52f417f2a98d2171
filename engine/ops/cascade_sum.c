/* The total of a contiguous float32 or float64 array in the order of PyTorch's CPU sum kernel
 * (aten/src/ATen/native/cpu/SumKernel.cpp, one thread), bit for bit.
 *
 * This is the compiled twin of `_contiguous_total` in engine/ops/numerics.py, which holds the
 * description of the order and stays the reference: tests/test_engine_compiled.py checks
 * that both give the same bits. A training loop sums small tensors several times a step; in
 * numpy the order takes eight calls (about 4 us for 100 values), here one (about 0.2 us;
 * benchmarks/bench_ops.py prints both).
 * The extension is optional: without a C compiler agraph runs the numpy version.
 *
 * Every addition is the same float addition in the same order as there, so the results are
 * the same bits; the sign of a zero in a partial sum never shows, since the final sum starts
 * at +0 (see `ordered_sum`). Compiled without -ffast-math: the compiler may not reorder.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define ILP 4
#define LEVELS 4
#define VECTOR_BYTES 32

static int ceil_log2(Py_ssize_t x)
{
    int bits = 0;
    size_t v;
    if (x <= 2)
        return 1;
    for (v = (size_t)(x - 1); v; v >>= 1)
        bits++;
    return bits;
}

#define DEFINE_TOTAL(T, NAME)                                                                  \
    /* out[j] = rows[0][j] + rows[1][j] + ... (in order; 0 for no rows) */                     \
    static void NAME##_rows(const T *rows, Py_ssize_t count, Py_ssize_t width, T *out)         \
    {                                                                                          \
        Py_ssize_t i, j;                                                                       \
        for (j = 0; j < width; j++)                                                            \
            out[j] = 0;                                                                        \
        for (i = 0; i < count; i++)                                                            \
            for (j = 0; j < width; j++)                                                        \
                out[j] = out[j] + rows[i * width + j];                                         \
    }                                                                                          \
                                                                                               \
    /* `_multi_row_sum`: rows (size, width) into out (width); `sums` holds size / 16 rows */   \
    static void NAME##_multi_row(const T *rows, Py_ssize_t size, Py_ssize_t width, T *out,     \
                                 T *sums, T *part)                                             \
    {                                                                                          \
        int power = ceil_log2(size) / LEVELS;                                                  \
        Py_ssize_t step, full, count, passed, i, j, level;                                     \
        if (power < 4)                                                                         \
            power = 4;                                                                         \
        step = (Py_ssize_t)1 << power;                                                         \
        full = size / step;                                                                    \
        NAME##_rows(rows + full * step * width, size - full * step, width, out);               \
        if (!full)                                                                             \
            return;                                                                            \
        for (i = 0; i < full; i++)                                                             \
            NAME##_rows(rows + i * step * width, step, width, sums + i * width);               \
        count = full;                                                                          \
        for (level = 0; level < LEVELS - 2; level++) {                                         \
            if (count < step)                                                                  \
                break;                                                                         \
            passed = (count / step) * step;                                                    \
            NAME##_rows(sums + passed * width, count - passed, width, part);                   \
            for (j = 0; j < width; j++)                                                        \
                out[j] = out[j] + part[j];                                                     \
            for (i = 0; i < passed / step; i++) { /* in place: row i reads rows >= i */      \
                NAME##_rows(sums + i * step * width, step, width, part);                       \
                memcpy(sums + i * width, part, (size_t)width * sizeof(T));                     \
            }                                                                                  \
            count = passed / step;                                                             \
        }                                                                                      \
        NAME##_rows(sums, count, width, part);                                                 \
        for (j = 0; j < width; j++)                                                            \
            out[j] = out[j] + part[j];                                                         \
    }                                                                                          \
                                                                                               \
    /* `_contiguous_total`; -1 with a MemoryError set when scratch memory is not there */      \
    static int NAME##_total(const T *x, Py_ssize_t size, T *result)                            \
    {                                                                                          \
        enum { LANES = VECTOR_BYTES / sizeof(T), WIDTH = ILP * LANES };                        \
        Py_ssize_t vectors = size / LANES, size_ilp = vectors / ILP, end = vectors * LANES;    \
        Py_ssize_t grouped = size_ilp * WIDTH, i, j;                                           \
        T first[LANES], partials[WIDTH], part[WIDTH], total = 0;                               \
        if (vectors == 0) { /* x0, then x4, x5, ..., then x1, x2, x3 */                        \
            if (size < ILP) {                                                                  \
                for (i = 0; i < size; i++)                                                     \
                    total = total + x[i];                                                      \
            } else {                                                                           \
                total = total + x[0];                                                          \
                for (i = ILP; i < size; i++)                                                   \
                    total = total + x[i];                                                      \
                for (i = 1; i < ILP; i++)                                                      \
                    total = total + x[i];                                                      \
            }                                                                                  \
            *result = total;                                                                   \
            return 0;                                                                          \
        }                                                                                      \
        if (size_ilp) {                                                                        \
            T *sums = NULL;                                                                    \
            if (size_ilp >= 16) {                                                              \
                sums = PyMem_Malloc((size_t)(size_ilp / 16) * WIDTH * sizeof(T));              \
                if (sums == NULL) {                                                            \
                    PyErr_NoMemory();                                                          \
                    return -1;                                                                 \
                }                                                                              \
            }                                                                                  \
            NAME##_multi_row(x, size_ilp, WIDTH, partials, sums, part);                        \
            PyMem_Free(sums);                                                                  \
            /* the first partial sum, the vectors after the groups, the other partial sums */ \
            memcpy(first, partials, sizeof first);                                             \
            for (i = grouped; i < end; i += LANES)                                             \
                for (j = 0; j < LANES; j++)                                                    \
                    first[j] = first[j] + x[i + j];                                            \
            for (i = 1; i < ILP; i++)                                                          \
                for (j = 0; j < LANES; j++)                                                    \
                    first[j] = first[j] + partials[i * LANES + j];                             \
        } else {                                                                               \
            NAME##_rows(x, vectors, LANES, first);                                             \
        }                                                                                      \
        for (i = end; i < size; i++)                                                           \
            total = total + x[i];                                                              \
        for (j = 0; j < LANES; j++)                                                            \
            total = total + first[j];                                                          \
        *result = total;                                                                       \
        return 0;                                                                              \
    }

DEFINE_TOTAL(float, f32)
DEFINE_TOTAL(double, f64)

static PyObject *total(PyObject *module, PyObject *args)
{
    PyObject *source, *target;
    Py_buffer in, out;
    int failed = 0;
    (void)module;
    if (!PyArg_ParseTuple(args, "OO:total", &source, &target))
        return NULL;
    if (PyObject_GetBuffer(source, &in, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    if (PyObject_GetBuffer(target, &out, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&in);
        return NULL;
    }
    if (in.format == NULL || out.format == NULL || strcmp(in.format, out.format) != 0
        || in.itemsize != out.itemsize || out.len != out.itemsize
        || !((strcmp(in.format, "f") == 0 && in.itemsize == 4)
             || (strcmp(in.format, "d") == 0 && in.itemsize == 8))) {
        PyErr_SetString(PyExc_TypeError,
                        "total(x, out): x and out float32 or float64 alike, out one element");
        failed = 1;
    } else if (in.itemsize == 4) {
        failed = f32_total((const float *)in.buf, in.len / 4, (float *)out.buf) < 0;
    } else {
        failed = f64_total((const double *)in.buf, in.len / 8, (double *)out.buf) < 0;
    }
    PyBuffer_Release(&in);
    PyBuffer_Release(&out);
    if (failed)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"total", total, METH_VARARGS,
     "total(x, out): the sum of x's values into out's one element, in PyTorch's order."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef definition = {
    PyModuleDef_HEAD_INIT, "_cascade_sum",
    "PyTorch's CPU float sum order for contiguous arrays (see engine/ops/numerics.py).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__cascade_sum(void)
{
    return PyModule_Create(&definition);
}
