/* Point sources, receivers and planes of the acoustic operator (src/acoustic/points.c, src/acoustic/fields.c;
   docs/acoustic.md "Sources, receivers and traces"). Fields in the padded layout of kernels/acoustic25.cl. No build options:
   the work-groups are the launch's (tuning key ac_points_wg). */

/* Sources, after a step: target t of [first, end) adds to the new field v at tidx[t] the sum over its contributions c in
   [tstart[t], tstart[t + 1]) of cw[c] times the table of source s = csrc[c] at this step (nothing once step >= slen[s]).
   The targets are distinct grid points, so no two work-items write the same point. */
__kernel void ac_inject(const int step, const int first, const int end, __global const int *tidx, __global const int *tstart, __global const int *csrc,
                        __global const float *cw, __global const int *soff, __global const int *slen, __global const float *tab, __global float *v)
{
  const int t = first + (int)get_global_id(0);
  float     s = 0.0f;

  if (t >= end) return;
  for (int c = tstart[t]; c < tstart[t + 1]; c++) {
    const int q = csrc[c];
    if (step < slen[q]) s = fma(cw[c], tab[soff[q] + step], s);
  }
  v[tidx[t]] += s;
}

/* Receivers: receiver r of nrec interpolates u at its 8 points (ridx, rw: 8 per receiver) into slot `slot` of the trace
   buffer (time-major: nrec values per slot). A receiver on a grid point reads that point exactly (weights 1, 0, ..., 0). */
__kernel void ac_sample(const int nrec, const int slot, __global const int *ridx, __global const float *rw, __global const float *u, __global float *trace)
{
  const int r = (int)get_global_id(0);
  float     s = 0.0f;

  if (r >= nrec) return;
  for (int p = 0; p < 8; p++) s = fma(rw[8 * r + p], u[ridx[8 * r + p]], s);
  trace[slot * nrec + r] = s;
}

/* A plane of a padded field: out[a + n1 b] = f[base + a s1 + b s2] for a < n1, b < n2 (range n1 x n2). */
__kernel void ac_plane(const int n1, const int n2, const int base, const int s1, const int s2, __global const float *f, __global float *out)
{
  const int a = (int)get_global_id(0), b = (int)get_global_id(1);

  if (a < n1 && b < n2) out[a + n1 * b] = f[base + a * s1 + b * s2];
}
