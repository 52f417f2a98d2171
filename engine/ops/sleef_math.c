/* SLEEF's float32 exp and log as ATen's Vectorized<float> computes them, compiled: the twins
 * of `sleef_expf` and `sleef_logf` in engine/ops/numerics.py.
 *
 *   expf(x, out)   out[i] = sleef_expf(x[i])
 *   logf(x, out)   out[i] = sleef_logf(x[i])
 *
 * x and out are C-contiguous float32 buffers of the same length (anything else is refused).
 * numerics.py holds the description of each step and stays the reference: every operation
 * here is the one there, in the same order and the same precision, so the results are the
 * same bits (tests/test_engine_compiled.py compares them over every float32 exponent and the
 * special values; a NaN result is a NaN in both). In numpy each function is some sixty calls
 * on temporaries, about 75 and 145 us for a row of 29 values, which a classification step
 * pays in every softmax, log_softmax and cross-entropy; here it is one call.
 *
 * Two kinds of "fused" multiply-add appear, as in numpy:
 *   - `fma_widened` is numerics.py's `_fma`: the product and the sum in float64, then rounded
 *     to float32 (what SLEEF's exp computes there, checked against PyTorch);
 *   - `fmaf` is float_math.py's `fma32`: one rounding (the C library's fmaf).
 * Compiled with -ffp-contract=off (setup.py): the compiler may not fuse any other a * b + c.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>
#include <stdint.h>

static float fma_widened(float a, float b, float c)
{
    double product = (double)a * (double)b;
    return (float)(product + (double)c);
}

static const double EXP_POLY[] = {0.00139304355252534151077271, 0.00833336077630519866943359,
                                  0.0416664853692054748535156, 0.166666671633720397949219,
                                  0.5};

static float exp_one(float d)
{
    const float r_ln2 =
        (float)1.442695040888963407359924681001892137426645954152985934135449406931;
    const float l2u = (float)0.693145751953125, l2l = (float)1.428606765330187045e-06;
    float r = rintf(d * r_ln2), qf, s, u;
    int32_t q, half;
    size_t i;
    /* numpy's cast of a float out of int32's range (or NaN) gives INT32_MIN, as x86 does */
    q = (r >= -2147483648.0f && r < 2147483648.0f) ? (int32_t)r : INT32_MIN;
    qf = (float)q;
    s = fma_widened(qf, -l2u, d);
    s = fma_widened(qf, -l2l, s);
    u = (float)0.000198527617612853646278381;
    for (i = 0; i < sizeof EXP_POLY / sizeof EXP_POLY[0]; i++)
        u = fma_widened(u, s, (float)EXP_POLY[i]);
    u = 1.0f + fma_widened(s * s, u, s);
    half = (int32_t)(q >> 1);
    u = u * ldexpf(1.0f, half) * ldexpf(1.0f, q - half);
    if (d < -104.0f)
        u = 0.0f;
    if (100.0f < d)
        u = INFINITY;
    return u;
}

/* SLEEF's dfadd2 of two floats: *total, and the exact error into *error */
static void two_sum(float x, float y, float *total, float *error)
{
    float sum = x + y, back = sum - x;
    *total = sum;
    *error = (x - (sum - back)) + (y - back);
}

static float log_one(float d)
{
    const float ln2_high = (float)0.69314718246459960938, ln2_low = (float)-1.904654323148236017e-09;
    const float p0 = (float)0.3027294874, p1 = (float)0.3996108174, p2 = (float)0.6666694880;
    float safe = (d > 0.0f && isfinite(d)) ? d : 1.0f, mantissa, m, e, s_x, s_y, n_x, n_y, q_x,
          q_y, t, x_x, u, v, x_y, x2, poly, total, tail, result;
    int exponent;
    int low;
    mantissa = frexpf(safe, &exponent); /* safe = mantissa * 2**exponent, in [0.5, 1) */
    low = mantissa < 0.75f;             /* getmant's interval is [0.75, 1.5) */
    m = low ? mantissa * 2.0f : mantissa;
    e = (float)(low ? exponent - 1 : exponent);
    s_x = ln2_high * e;
    s_y = fmaf(ln2_low, e, fmaf(ln2_high, e, -s_x));
    two_sum(-1.0f, m, &n_x, &n_y);
    two_sum(1.0f, m, &q_x, &q_y);
    t = 1.0f / q_x;
    x_x = n_x * t;
    u = fmaf(t, n_x, -x_x);
    v = fmaf(-q_y, t, fmaf(-q_x, t, 1.0f));
    x_y = fmaf(x_x, v, fmaf(n_y, t, u));
    x2 = x_x * x_x;
    poly = fmaf(fmaf(p0, x2, p1), x2, p2);
    total = s_x + x_x * 2.0f;
    s_y = (((s_x - total) + x_x * 2.0f) + s_y) + x_y * 2.0f;
    s_x = total;
    tail = (x2 * x_x) * poly;
    total = s_x + tail;
    s_y = ((s_x - total) + tail) + s_y;
    result = total + s_y;
    if (d == INFINITY)
        result = INFINITY;
    if (d == 0.0f)
        result = -INFINITY;
    if (d < 0.0f || isnan(d))
        result = NAN;
    return result;
}

/* fn(x, out) over two C-contiguous float32 buffers of one length */
static PyObject *apply(PyObject *args, float (*one)(float))
{
    PyObject *source, *target;
    Py_buffer x, out;
    Py_ssize_t i, count;
    if (!PyArg_ParseTuple(args, "OO", &source, &target))
        return NULL;
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
        ((float *)out.buf)[i] = one(((const float *)x.buf)[i]);
    PyBuffer_Release(&x);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

static PyObject *exp_all(PyObject *self, PyObject *args)
{
    return apply(args, exp_one);
}

static PyObject *log_all(PyObject *self, PyObject *args)
{
    return apply(args, log_one);
}

static PyMethodDef methods[] = {
    {"expf", exp_all, METH_VARARGS, "expf(x, out): numerics.sleef_expf of float32 x, into out"},
    {"logf", log_all, METH_VARARGS, "logf(x, out): numerics.sleef_logf of float32 x, into out"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_sleef_math",
                                    "engine/ops/numerics.py's SLEEF exp and log, compiled.", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__sleef_math(void)
{
    return PyModule_Create(&module);
}
