/* vec::reduce_all(+) of float32 rows, compiled: the twin of `_reduce_all_sum` in
 * engine/ops/numerics.py, which describes ATen's order (the AVX512 build's 16 lanes) and stays
 * the reference.
 *
 *   reduce_all(rows, out)   out[r] = the sum of row r in that order
 *
 * rows: a C-contiguous float32 buffer of count * size values (size >= 1); out: count float32.
 * Each addition is the one numerics.py makes, in the same order, so the results are the same
 * bits (tests/test_engine_compiled.py). Softmax and log_softmax sum every row this way,
 * forward and backward; in numpy that is about eight calls a row block, here one.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define LANES 16

static float row_sum(const float *row, Py_ssize_t size)
{
    float acc[LANES], total;
    Py_ssize_t full, start, k;
    int half, l;
    if (size < LANES) { /* left to right */
        total = row[0];
        for (k = 1; k < size; k++)
            total = total + row[k];
        return total;
    }
    memcpy(acc, row, sizeof acc);
    full = size - size % LANES;
    for (start = LANES; start < full; start += LANES)
        for (l = 0; l < LANES; l++)
            acc[l] = acc[l] + row[start + l];
    for (k = 0; k < size - full; k++) /* a partial last vector, into the first lanes */
        acc[k] = acc[k] + row[full + k];
    for (half = LANES / 2; half >= 1; half /= 2) /* the halving tree */
        for (l = 0; l < half; l++)
            acc[l] = acc[l] + acc[l + half];
    return acc[0];
}

static PyObject *reduce_all(PyObject *self, PyObject *args)
{
    PyObject *source, *target;
    Py_buffer rows, out;
    Py_ssize_t count, size, r;
    int ok;
    if (!PyArg_ParseTuple(args, "OO", &source, &target))
        return NULL;
    if (PyObject_GetBuffer(source, &rows, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    if (PyObject_GetBuffer(target, &out, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) <
        0) {
        PyBuffer_Release(&rows);
        return NULL;
    }
    count = out.len / 4;
    ok = rows.format && out.format && strcmp(rows.format, "f") == 0 &&
         strcmp(out.format, "f") == 0 && rows.itemsize == 4 && out.itemsize == 4 && count > 0 &&
         rows.len % (4 * count) == 0 && rows.len >= 4 * count;
    if (ok) {
        size = rows.len / 4 / count;
        for (r = 0; r < count; r++)
            ((float *)out.buf)[r] = row_sum((const float *)rows.buf + r * size, size);
    } else {
        PyErr_SetString(PyExc_TypeError, "rows: C-contiguous float32, a whole number (at least "
                                         "one) of values per element of out (float32)");
    }
    PyBuffer_Release(&rows);
    PyBuffer_Release(&out);
    if (!ok)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"reduce_all", reduce_all, METH_VARARGS,
     "reduce_all(rows, out): numerics.reduce_all_sum of each float32 row, into out"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_vector_sum",
                                    "engine/ops/numerics.py's reduce_all_sum, compiled.", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__vector_sum(void)
{
    return PyModule_Create(&module);
}
