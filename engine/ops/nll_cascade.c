/* nll_loss's cascade sum over a batch, compiled: the twin of `_nll_cascade` in
 * engine/ops/loss.py, which describes the order (ATen's LossNLL.cpp) and stays the reference.
 *
 *   total(picked, weights, valid, out)
 *
 * picked: the batch's picked log-probabilities, a C-contiguous float32 or float64 vector;
 * weights: None, or their weights (same dtype and length); valid: the bools of the targets
 * kept (same length); out: two elements of picked's dtype, written (total loss, total weight).
 * Each addition is the one loss.py makes, in the same order and precision, so the results
 * are the same bits (tests/test_engine_compiled.py). In Python the loop costs about 4 us a
 * sample, which a classification step pays in every cross-entropy; here it is one call.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define LEVELS 8

#define DEFINE_CASCADE(T, NAME)                                                                \
    static void NAME(const T *picked, const T *weights, const char *valid, Py_ssize_t size,    \
                     T *out)                                                                   \
    {                                                                                          \
        T loss[LEVELS] = {0}, weight_sums[LEVELS] = {0}, total_loss = 0, total_weight = 0;     \
        Py_ssize_t b, ignored = 0, bits = size <= 2 ? 1 : 0, rest;                             \
        int power, j;                                                                          \
        size_t mask;                                                                           \
        for (rest = size - 1; size > 2 && rest; rest >>= 1)                                    \
            bits++;                                                                            \
        power = (int)(bits / LEVELS) > 4 ? (int)(bits / LEVELS) : 4;                           \
        mask = ((size_t)1 << power) - 1;                                                       \
        for (b = 0; b < size; b++) {                                                           \
            if (!valid[b]) {                                                                   \
                ignored++;                                                                     \
                continue;                                                                      \
            }                                                                                  \
            if (weights == NULL) {                                                             \
                loss[0] = loss[0] - picked[b];                                                 \
            } else {                                                                           \
                T product = picked[b] * weights[b];                                            \
                loss[0] = loss[0] - product;                                                   \
                weight_sums[0] = weight_sums[0] + weights[b];                                  \
            }                                                                                  \
            for (j = 0; j < LEVELS - 1; j++) {                                                 \
                if ((size_t)b & (mask << (j * power)))                                         \
                    break;                                                                     \
                loss[j + 1] = loss[j + 1] + loss[j];                                           \
                weight_sums[j + 1] = weight_sums[j + 1] + weight_sums[j];                      \
                loss[j] = 0;                                                                   \
                weight_sums[j] = 0;                                                            \
            }                                                                                  \
        }                                                                                      \
        for (j = 0; j < LEVELS; j++)                                                           \
            total_loss = total_loss + loss[j];                                                 \
        if (weights == NULL) {                                                                 \
            total_weight = (T)(size - ignored);                                                \
        } else {                                                                               \
            for (j = 0; j < LEVELS; j++)                                                       \
                total_weight = total_weight + weight_sums[j];                                  \
        }                                                                                      \
        out[0] = total_loss;                                                                   \
        out[1] = total_weight;                                                                 \
    }

DEFINE_CASCADE(float, cascade_float)
DEFINE_CASCADE(double, cascade_double)

static int is_format(Py_buffer *view, const char *format)
{
    return view->format != NULL && strcmp(view->format, format) == 0;
}

static PyObject *total(PyObject *self, PyObject *args)
{
    PyObject *picked_object, *weights_object, *valid_object, *out_object;
    Py_buffer picked, weights, valid, out;
    int has_weights, ok;
    Py_ssize_t size;
    if (!PyArg_ParseTuple(args, "OOOO", &picked_object, &weights_object, &valid_object,
                          &out_object))
        return NULL;
    has_weights = weights_object != Py_None;
    if (PyObject_GetBuffer(picked_object, &picked, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    if (has_weights &&
        PyObject_GetBuffer(weights_object, &weights, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyBuffer_Release(&picked);
        return NULL;
    }
    if (PyObject_GetBuffer(valid_object, &valid, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        goto release_weights;
    if (PyObject_GetBuffer(out_object, &out, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) <
        0)
        goto release_valid;
    ok = (is_format(&picked, "f") || is_format(&picked, "d")) && is_format(&valid, "?") &&
         is_format(&out, picked.format) && out.len == 2 * picked.itemsize &&
         valid.len == picked.len / picked.itemsize &&
         (!has_weights || (is_format(&weights, picked.format) && weights.len == picked.len));
    if (ok) {
        size = picked.len / picked.itemsize;
        if (picked.itemsize == 4)
            cascade_float((const float *)picked.buf,
                          has_weights ? (const float *)weights.buf : NULL,
                          (const char *)valid.buf, size, (float *)out.buf);
        else
            cascade_double((const double *)picked.buf,
                           has_weights ? (const double *)weights.buf : NULL,
                           (const char *)valid.buf, size, (double *)out.buf);
    } else {
        PyErr_SetString(PyExc_TypeError, "picked and weights: one float dtype and length; "
                                         "valid: bools of that length; out: two of that dtype");
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&valid);
    if (has_weights)
        PyBuffer_Release(&weights);
    PyBuffer_Release(&picked);
    if (!ok)
        return NULL;
    Py_RETURN_NONE;
release_valid:
    PyBuffer_Release(&valid);
release_weights:
    if (has_weights)
        PyBuffer_Release(&weights);
    PyBuffer_Release(&picked);
    return NULL;
}

static PyMethodDef methods[] = {
    {"total", total, METH_VARARGS,
     "total(picked, weights, valid, out): nll_loss's cascade, (loss, weight) into out"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_nll_cascade",
                                    "engine/ops/loss.py's _nll_cascade, compiled.", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__nll_cascade(void)
{
    return PyModule_Create(&module);
}
