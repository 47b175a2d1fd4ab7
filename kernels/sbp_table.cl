/* The packed table of one SBP order (spec-sbp-sat-highorder.md sections 1.1-1.5 and 3.2) as the order-p kernels read it: one array of
   reals filled on the host from the same tables as the assembled reference (src/sbp/sbp1d.c SbpSparse1DPackTable), passed to the kernels
   as a buffer, so that the coefficients exist once. This file is also compiled as C by the host paths. Layout (offsets in reals):

     SBP_T_ORDER .. SBP_T_ALPHA   the scalars: p, nH, nD, nD1w, nBS, nM, q, l, theta_R, alpha
     SBP_T_W + k                  the norm weight w_k at the left end, k < nH (1 beyond)
     SBP_T_Q + 9 i + j            Q = H D1 (h-free), closure row i < nD, column j < nD1w
     SBP_T_S + q + o              the interior row of Q (= h D1), offsets o = -q..q
     SBP_T_BS + k                 the boundary-derivative row BS_k, k < nBS
     SBP_T_MU + 7 d + (o - d + q) the interior h M(c): m_{i,i+d} = sum_{o=d-q}^{q} mu c_{i+o}, d = 0..q
     SBP_T_M + (9 i + j) 12 + k   the left block of h M(c) (both triangles): m_ij = sum_k M c_k, i, j < nM, k < nM + q */
#ifndef SBPMG_SBP_TABLE_CL
#define SBPMG_SBP_TABLE_CL

#define SBP_T_ORDER  0
#define SBP_T_NH     1
#define SBP_T_ND     2
#define SBP_T_ND1W   3
#define SBP_T_NBS    4
#define SBP_T_NM     5
#define SBP_T_QH     6
#define SBP_T_L      7
#define SBP_T_THETA  8
#define SBP_T_ALPHA  9
#define SBP_T_W      10
#define SBP_T_Q      (SBP_T_W + 6)
#define SBP_T_S      (SBP_T_Q + 9 * 9)
#define SBP_T_BS     (SBP_T_S + 7)
#define SBP_T_MU     (SBP_T_BS + 5)
#define SBP_T_M      (SBP_T_MU + 4 * 7)
#define SBP_T_SIZE   (SBP_T_M + 9 * 9 * 12)

#endif
