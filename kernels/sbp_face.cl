/* The 1D pieces of order p (spec-sbp-sat-highorder.md sections 1.2-1.4) that the face terms of the right-hand side (kernels/rhs.cl) and
   the traction (kernels/traction.cl) read from the packed table of kernels/sbp_table.cl (tab: SBP_T_SIZE reals, the problem's order;
   src/sbp/ordertable.c): the norm weight, an entry of Q = H D1 and the nonzero range of a row and of a column of Q. N intervals along
   the line, nodes 0..N. Built after kernels/sbp.cl (SBP_FN, SBP_GLOBAL, sbp_real) and kernels/sbp_table.cl; also compiled as C by the
   host paths (src/sbp/rhs.c, traction.c, exact.c), so the formulas exist once. */
#ifndef SBPMG_SBP_FACE_CL
#define SBPMG_SBP_FACE_CL

/* An integer entry of the table's header (SBP_T_NH, SBP_T_ND, ...). */
#define SBP_TAB_INT(tab, at) ((int)(tab)[at])

/* The norm weight w_k of node k (1.2): the table's w at each end, mirrored (w_k = w_{N-k}), 1 inside; H = h diag(w). */
SBP_FN sbp_real sbp_face_weight(SBP_GLOBAL const sbp_real *tab, const int N, const int k)
{
  const int e = k < N - k ? k : N - k;
  return e < SBP_TAB_INT(tab, SBP_T_NH) ? tab[SBP_T_W + e] : (sbp_real)1;
}

/* The weight hr w^r_i hs w^s_j of node (i, j) in H~ = Hs (x) Hr (3.1; the error norm of section 5 and J H of section 4). */
SBP_FN sbp_real sbp_face_norm_weight(SBP_GLOBAL const sbp_real *tab, const int i, const int j, const int Nr, const int Ns, const sbp_real hr, const sbp_real hs)
{
  return hr * sbp_face_weight(tab, Nr, i) * (hs * sbp_face_weight(tab, Ns, j));
}

/* Q_{r,c} (1.3, h-free): the left closure rows r < nD (columns < nD1w), the right end by Q_{N-i,N-j} = -Q_{i,j}, the interior stencil
   between (offsets -q..q); 0 elsewhere. */
SBP_FN sbp_real sbp_face_q(SBP_GLOBAL const sbp_real *tab, const int N, const int r, const int c)
{
  const int nD = SBP_TAB_INT(tab, SBP_T_ND), nw = SBP_TAB_INT(tab, SBP_T_ND1W), q = SBP_TAB_INT(tab, SBP_T_QH);

  if (r < nD) return c >= 0 && c < nw ? tab[SBP_T_Q + 9 * r + c] : (sbp_real)0;
  if (r > N - nD) return N - c >= 0 && N - c < nw ? -tab[SBP_T_Q + 9 * (N - r) + (N - c)] : (sbp_real)0;
  return c - r >= -q && c - r <= q ? tab[SBP_T_S + q + (c - r)] : (sbp_real)0;
}

/* The columns lo..hi that row r of Q may hold ((Q v)_r = sum_{c=lo}^{hi} Q_{r,c} v_c). */
SBP_FN void sbp_face_q_cols(SBP_GLOBAL const sbp_real *tab, const int N, const int r, int *lo, int *hi)
{
  const int nD = SBP_TAB_INT(tab, SBP_T_ND), nw = SBP_TAB_INT(tab, SBP_T_ND1W), q = SBP_TAB_INT(tab, SBP_T_QH);

  *lo = r < nD ? 0 : r > N - nD ? N - nw + 1 : r - q;
  *hi = r < nD ? nw - 1 : r > N - nD ? N : r + q;
}

/* The rows lo..hi whose entry in column c of Q may be nonzero ((Q^T v)_c = sum_{k=lo}^{hi} Q_{k,c} v_k): the interior band, and every
   closure row where c is one of the closure's columns. */
SBP_FN void sbp_face_qt_rows(SBP_GLOBAL const sbp_real *tab, const int N, const int c, int *lo, int *hi)
{
  const int nD = SBP_TAB_INT(tab, SBP_T_ND), nw = SBP_TAB_INT(tab, SBP_T_ND1W), q = SBP_TAB_INT(tab, SBP_T_QH);

  *lo = c - q;
  *hi = c + q;
  if (c < nw) { /* the left closure rows 0..nD-1 */
    *lo = 0;
    if (*hi < nD - 1) *hi = nD - 1;
  }
  if (c > N - nw) { /* the right closure rows N-nD+1..N */
    *hi = N;
    if (*lo > N - nD + 1) *lo = N - nD + 1;
  }
  if (*lo < 0) *lo = 0;
  if (*hi > N) *hi = N;
}

#endif
