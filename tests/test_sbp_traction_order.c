/* The face traction of order 4 and 6 (SbpProblemComputeFaceTraction(), src/sbp/traction.c, kernels/traction.cl, kernels/sbp_face.cl;
   spec-sbp-sat-highorder.md 1.3, 1.4, 3.1): the order's G_f formed from the 1D blocks by Kronecker products and the assembled operator's
   boundary rows as references (host and device, every face, Nr != Ns); convergence to the exact traction of the manufactured solution,
   for the exact solution at the nodes and the discrete one (assembled operator, CHOLMOD), its observed orders printed and checked; 2 and
   3 ranks against one (run under mpiexec). */
#include "test_sbp_common.h"

static const char help[] = "The face traction of SBP order 4 and 6: references, convergence, ranks.\n";

static const PetscInt Orders[2] = {4, 6};

/* A problem of the order on comm: Nr x Ns, faces bc, the mapping, mu constant 3 (mu_const) or the basin, the backend; set up. */
static SbpProblem order_problem(MPI_Comm comm, PetscInt order, PetscInt Nr, PetscInt Ns, const char *bc, SbpMappingType map, PetscBool mu_const,
                                SbpBackend backend)
{
  const SbpTestOrderSettings set = {order, mu_const ? 3 : 0, NULL, NULL};
  return SbpTestOrderProblem(comm, Nr, Ns, bc, map, backend, &set);
}

/* The face's scale factor at node (i, j) from the analytic mapping (curved or square). */
static PetscReal scale_at(SbpProblem p, PetscInt face, PetscInt i, PetscInt j, PetscReal X[6])
{
  if (p->mapping == SBP_MAPPING_SQUARE)
    PCALL(SbpMappingSquare(NULL, -1 + i * p->hr, -1 + j * p->hs, X));
  else
    PCALL(SbpMappingCurved(NULL, -1 + i * p->hr, -1 + j * p->hs, X));
  return face <= 2 ? PetscSqrtReal(X[3] * X[3] + X[5] * X[5]) : PetscSqrtReal(X[2] * X[2] + X[4] * X[4]);
}

/* ---------------------------------------------------------------- (a) the references */

/* y = (B (x) A) x for 1D blocks in CSR. */
static void kron_apply(const SbpSparse1D *B, const SbpSparse1D *A, const PetscReal *x, PetscReal *y)
{
  for (PetscInt b = 0; b < B->m; b++)
    for (PetscInt a = 0; a < A->m; a++) {
      PetscReal v = 0;
      for (PetscInt qb = B->ia[b]; qb < B->ia[b + 1]; qb++)
        for (PetscInt qa = A->ia[a]; qa < A->ia[a + 1]; qa++) v += B->a[qb] * A->a[qa] * x[A->ja[qa] + A->n * B->ja[qb]];
      y[a + A->m * b] = v;
    }
}

/* G_f u / (H_f sJ) with G_f = sigma H_f [Cn_f (boundary derivative, lifted) + Ct_f L_f (D1 along the face, lifted)] (3.1) of the order's
   1D blocks (SbpSparse1DBoundaryDerivative, SbpSparse1DDerivative): the traction of u (natural order) on face `face`, one rank. */
static void kronecker_traction(SbpProblem p, PetscInt face, const PetscReal *u, PetscReal *t)
{
  const PetscBool rface = face <= 2, far = (face == 2 || face == 4) ? PETSC_TRUE : PETSC_FALSE;
  const PetscInt  Nt = rface ? p->Ns : p->Nr, Nn = rface ? p->Nr : p->Ns, np = (p->Nr + 1) * (p->Ns + 1);
  const PetscReal ht = rface ? p->hs : p->hr, hn = rface ? p->hr : p->hs, sigma = far ? 1 : -1;
  SbpSparse1D     It, In, Dt, d, e;
  PetscReal      *dn, *w, *Lw;

  PCALL(SbpProblemGetHostCoefficients(p));
  PCALL(SbpSparse1DIdentity(Nt + 1, &It));
  PCALL(SbpSparse1DIdentity(Nn + 1, &In));
  PCALL(SbpSparse1DDerivative(p->order, Nt, ht, &Dt));
  PCALL(SbpSparse1DBoundaryDerivative(p->order, Nn, hn, far, &d));
  PCALL(SbpSparse1DSelector(Nn + 1, far, &e));
  PCALL(PetscMalloc3(Nt + 1, &dn, np, &w, Nt + 1, &Lw));
  if (rface) {
    kron_apply(&It, &d, u, dn);
    kron_apply(&Dt, &In, u, w);
    kron_apply(&It, &e, w, Lw);
  } else {
    kron_apply(&d, &It, u, dn);
    kron_apply(&In, &Dt, u, w);
    kron_apply(&e, &It, w, Lw);
  }
  for (PetscInt k = 0; k <= Nt; k++) {
    PetscInt  i, j, q;
    PetscReal X[6];
    SbpTestFaceNode(p, face, k, &i, &j);
    q    = SbpPatchIndex(p, i, j);
    t[k] = sigma * ((rface ? p->crr[q] : p->css[q]) * dn[k] + p->crs[q] * Lw[k]) / scale_at(p, face, i, j, X);
  }
  PCALL(PetscFree3(dn, w, Lw));
  SbpSparse1D *all[] = {&It, &In, &Dt, &d, &e};
  for (size_t k = 0; k < sizeof(all) / sizeof(all[0]); k++) PCALL(SbpSparse1DDestroy(all[k]));
}

/* The traction from the assembled operators of the order: face f Dirichlet (pd) against all Neumann (pn), on a u zero on the face,
   (M_D - M_N) u = -L^T G_f u: -row / (H_f sJ) on the face rows, zero off them (offface: the largest there). */
static void assembled_traction(SbpProblem pd, SbpProblem pn, PetscInt face, Vec u, PetscReal *t, PetscReal *offface)
{
  const PetscInt     Nt = face <= 2 ? pd->Ns : pd->Nr;
  Mat                Ad, An;
  Vec                yd, yn, uh;
  const PetscScalar *a;
  SbpSparse1D        Hf;

  PCALL(SbpProblemCreateAssembledOperator(pd, &Ad));
  PCALL(SbpProblemCreateAssembledOperator(pn, &An));
  PCALL(MatCreateVecs(Ad, &yd, &yn));
  PCALL(VecDuplicate(yd, &uh));
  SbpTestCopyLocal(u, uh);
  PCALL(MatMult(Ad, uh, yd));
  PCALL(MatMult(An, uh, yn));
  PCALL(VecAXPY(yd, -1, yn));
  PCALL(SbpSparse1DNorm(pd->order, Nt, face <= 2 ? pd->hs : pd->hr, PETSC_FALSE, &Hf));
  PCALL(VecGetArrayRead(yd, &a));
  *offface = 0;
  for (PetscInt q = 0; q < (pd->Nr + 1) * (pd->Ns + 1); q++) {
    PetscInt  i = q % (pd->Nr + 1), j = q / (pd->Nr + 1);
    PetscBool on = (face == 1 && i == 0) || (face == 2 && i == pd->Nr) || (face == 3 && j == 0) || (face == 4 && j == pd->Ns);
    if (!on) *offface = PetscMax(*offface, PetscAbsReal(PetscRealPart(a[q])));
  }
  for (PetscInt k = 0; k <= Nt; k++) {
    PetscInt  i, j;
    PetscReal X[6];
    SbpTestFaceNode(pd, face, k, &i, &j);
    t[k] = -PetscRealPart(a[i + (pd->Nr + 1) * j]) / Hf.a[Hf.ia[k]] / scale_at(pd, face, i, j, X);
  }
  PCALL(VecRestoreArrayRead(yd, &a));
  PCALL(SbpSparse1DDestroy(&Hf));
  SbpmgTestDestroyVecs(&yd, &yn, &uh, NULL);
  PCALL(MatDestroy(&Ad));
  PCALL(MatDestroy(&An));
}

/* Every face, both backends: the traction equals the Kronecker G_f's to 1e-12, and the assembled boundary rows' for a u zero on it. */
static void test_references(void **state)
{
  PetscReal worst[2] = {0, 0};

  if (SbpTestWorldSize() > 1) return;
  for (int o = 0; o < 2; o++)
    for (int dev = 0; dev < 2; dev++)
      for (PetscInt face = 1; face <= 4; face++) {
        const PetscInt   Nr = Orders[o] == 4 ? 21 : 29, Ns = Orders[o] == 4 ? 15 : 20, n = face <= 2 ? Ns + 1 : Nr + 1;
        const SbpBackend be     = dev ? SBP_BACKEND_DEVICE : SBP_BACKEND_HOST;
        char             bcd[5] = "NNNN";
        SbpProblem       p, pn;
        Vec              u;
        PetscReal       *t, *ref, *ua, off, d[2];
        PetscScalar    **arr;

        bcd[face - 1] = 'D';
        p             = order_problem(PETSC_COMM_SELF, Orders[o], Nr, Ns, bcd, SBP_MAPPING_CURVED, PETSC_FALSE, be);
        pn            = order_problem(PETSC_COMM_SELF, Orders[o], Nr, Ns, "NNNN", SBP_MAPPING_CURVED, PETSC_FALSE, be);
        PCALL(SbpProblemCreateVector(p, &u));
        SbpTestFillU(p, u, 0);
        t = SbpTestTraction(p, u, face, NULL);
        PCALL(PetscMalloc2(n, &ref, (Nr + 1) * (Ns + 1), &ua));
        PCALL(SbpProblemVecGetArray(p, u, PETSC_FALSE, &arr));
        for (PetscInt j = 0; j <= Ns; j++)
          for (PetscInt i = 0; i <= Nr; i++) ua[i + (Nr + 1) * j] = PetscRealPart(arr[j][i]);
        PCALL(SbpProblemVecRestoreArray(p, u, PETSC_FALSE, &arr));
        kronecker_traction(p, face, ua, ref);
        d[0] = SbpTestRelDiff(n, t, ref);
        PCALL(PetscFree(t));
        SbpTestFillU(p, u, face);
        t = SbpTestTraction(p, u, face, NULL);
        assembled_traction(p, pn, face, u, ref, &off);
        d[1] = SbpTestRelDiff(n, t, ref);
        print_message("  p = %d, %s, face %d: against the Kronecker G_f %.1e, the assembled boundary rows %.1e (off the face %.0e)\n", (int)Orders[o],
                      dev ? "device" : "host", (int)face, d[0], d[1], off);
        if (!(d[0] <= 1e-12 && d[1] <= 1e-12 && off <= 1e-12))
          fail_msg("p = %d face %d: the traction differs from the Kronecker G_f by %g, from the assembled rows by %g (off the face %g)", (int)Orders[o],
                   (int)face, d[0], d[1], off);
        worst[0] = PetscMax(worst[0], d[0]);
        worst[1] = PetscMax(worst[1], d[1]);
        PCALL(PetscFree2(ref, ua));
        PCALL(PetscFree(t));
        PCALL(VecDestroy(&u));
        PCALL(SbpProblemDestroy(&pn));
        PCALL(SbpProblemDestroy(&p));
      }
  print_message("  worst: %.1e (Kronecker), %.1e (assembled rows)\n", worst[0], worst[1]);
}

/* ---------------------------------------------------------------- (b) convergence to the exact traction */

/* The exact traction mu n.grad u of u = sin(pi x) cos(pi y) at node (i, j) of face `face` (mu constant 3). */
static PetscReal exact_traction(SbpProblem p, PetscInt face, PetscInt i, PetscInt j)
{
  PetscReal X[6], u, ux, uy, sJ = scale_at(p, face, i, j, X);

  SbpExactSolution(X[0], X[1], &u, &ux, &uy);
  return SbpNeumannFlux(face, X, 3, ux, uy) / sJ;
}

/* err[0] the max over the face's nodes, err[1] its H_f-weighted L2 norm (order-2 weights: a plain measure). */
static void traction_errors(SbpProblem p, Vec u, PetscInt face, PetscReal err[2])
{
  PetscReal      *t = SbpTestTraction(p, u, face, NULL), sum = 0;
  const PetscInt  n = SbpTestFaceLength(p, face);
  const PetscReal h = 2.0 / (n - 1);

  err[0] = 0;
  for (PetscInt k = 0; k < n; k++) {
    PetscInt  i, j;
    PetscReal e;
    SbpTestFaceNode(p, face, k, &i, &j);
    e      = PetscAbsReal(t[k] - exact_traction(p, face, i, j));
    err[0] = PetscIsInfOrNanReal(t[k]) ? NAN : PetscMax(err[0], e);
    sum += h * ((k == 0 || k == n - 1) ? 0.5 : 1) * e * e;
  }
  err[1] = PetscSqrtReal(sum);
  PCALL(PetscFree(t));
}

/* On grid N: e[face-1][0..1] of the exact solution at the nodes, [2..3] of the discrete solution (assembled operator, CHOLMOD); on the device. */
static void convergence_errors(PetscInt order, SbpMappingType map, const char *bc, PetscInt N, PetscReal e[4][4])
{
  SbpTestSystem s;
  Vec           ud, ue;

  SbpTestSystemCreate(order_problem(PETSC_COMM_SELF, order, N, N, bc, map, PETSC_TRUE, SBP_BACKEND_DEVICE), PETSC_TRUE, &s);
  s.ksp = SbpTestCholmod(s.A);
  (void)SbpTestSystemSolve(&s);
  PCALL(SbpProblemCreateVector(s.p, &ud));
  PCALL(VecDuplicate(ud, &ue));
  SbpTestCopyLocal(s.u, ud);
  PCALL(SbpProblemComputeExactSolution(s.p, ue));
  for (PetscInt face = 1; face <= 4; face++) {
    traction_errors(s.p, ue, face, &e[face - 1][0]);
    traction_errors(s.p, ud, face, &e[face - 1][2]);
  }
  SbpmgTestDestroyVecs(&ud, &ue, NULL);
  SbpTestSystemDestroy(&s);
}

/* The least order between the last two grids, by order (4, 6), mapping (curved: crs != 0; square: crs = 0) and quantity (u exact max,
   L2; u discrete max, L2), observed less a margin. The boundary row BS is exact to degree p/2 + 1 (order p/2 + 1 in h: 3, 4; one more
   on the faces where the manufactured solution's next derivative vanishes), the D1 closure along the face to degree p/2 (order p/2: 2,
   3), which the max over a face of the curved grid sees near its end nodes (the L2 norm as about p/2 + 1/2). */
static const PetscReal NeedOrder[2][2][4] = {
    {{1.7, 2.4, 1.75, 2.2}, {2.85, 2.85, 2.85, 2.85}}, /* p = 4: curved, square */
    {{2.75, 3.3, 2.6, 3.2}, {3.8, 3.8, 3.8, 3.8}},     /* p = 6 */
};

static void test_convergence(void **state)
{
  const char *what[4] = {"u exact: max", "u exact: L2", "u discrete: max", "u discrete: L2"};

  if (SbpTestWorldSize() > 1) return;
  for (int o = 0; o < 2; o++)
    for (int m = 0; m < 2; m++) {
      const PetscInt       grids[2][4] = {{32, 64, 128, 0}, {36, 72, 144, 288}}, *N = grids[o], ng = o ? 4 : 3; /* p = 6 needs the fourth */
      const SbpMappingType map = m ? SBP_MAPPING_SQUARE : SBP_MAPPING_CURVED;
      PetscReal            e[4][4][4];

      for (PetscInt g = 0; g < ng; g++) convergence_errors(Orders[o], map, "DNDN", N[g], e[g]);
      print_message("  p = %d, %s, faces DNDN, mu constant: the error of the traction on N = %d, %d .. %d (order)\n", (int)Orders[o], m ? "square" : "curved",
                    (int)N[0], (int)N[1], (int)N[ng - 1]);
      for (PetscInt face = 1; face <= 4; face++)
        for (int q = 0; q < 4; q++) {
          const PetscReal o1 = PetscLog2Real(e[0][face - 1][q] / e[1][face - 1][q]), o2 = PetscLog2Real(e[ng - 2][face - 1][q] / e[ng - 1][face - 1][q]);
          print_message("    face %d %-16s %.2e %.2e (%.2f) .. %.2e (%.2f)\n", (int)face, what[q], e[0][face - 1][q], e[1][face - 1][q], o1,
                        e[ng - 1][face - 1][q], o2);
          if (!(o2 >= NeedOrder[o][m][q]))
            fail_msg("p = %d, %s, face %d: %s converges at order %g < %g", (int)Orders[o], m ? "square" : "curved", (int)face, what[q], o2, NeedOrder[o][m][q]);
        }
    }
}

/* ---------------------------------------------------------------- (c) several ranks */

/* The traction on each face on the ranks equals one rank's (rank 0), both backends, grids that cut the faces of r and of s. */
static void test_ranks(void **state)
{
  PetscReal worst = 0;

  if (SbpTestWorldSize() == 1) return;
  SbpTestDeviceFirstUse();
  for (int o = 0; o < 2; o++)
    for (int g = 0; g < 2; g++)
      for (int dev = 0; dev < 2; dev++) {
        const PetscInt   n0 = Orders[o] == 4 ? 33 : 41, n1 = Orders[o] == 4 ? 14 : 19, Nr = g ? n1 : n0, Ns = g ? n0 : n1;
        const SbpBackend be = dev ? SBP_BACKEND_DEVICE : SBP_BACKEND_HOST;
        SbpProblem       pp, ps = NULL;
        Vec              up, us = NULL;
        PetscMPIInt      rank;

        pp = order_problem(PETSC_COMM_WORLD, Orders[o], Nr, Ns, "DNND", SBP_MAPPING_CURVED, PETSC_FALSE, be);
        PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
        PCALL(SbpProblemCreateVector(pp, &up));
        SbpTestFillU(pp, up, 0);
        if (rank == 0) {
          ps = order_problem(PETSC_COMM_SELF, Orders[o], Nr, Ns, "DNND", SBP_MAPPING_CURVED, PETSC_FALSE, be);
          PCALL(SbpProblemCreateVector(ps, &us));
          SbpTestFillU(ps, us, 0);
        }
        for (PetscInt face = 1; face <= 4; face++) {
          PetscReal *tp = SbpTestTraction(pp, up, face, NULL), d = 0;
          if (rank == 0) {
            PetscReal *ts = SbpTestTraction(ps, us, face, NULL);
            d             = SbpTestRelDiff(SbpTestFaceLength(pp, face), tp, ts);
            PCALL(PetscFree(ts));
          }
          PCALL(MPI_Bcast(&d, 1, MPIU_REAL, 0, PETSC_COMM_WORLD));
          if (!(d <= 1e-14))
            fail_msg("p = %d, %dx%d, %s, face %d: the traction differs from one rank's by %g", (int)Orders[o], (int)Nr, (int)Ns, dev ? "device" : "host",
                     (int)face, d);
          worst = PetscMax(worst, d);
          PCALL(PetscFree(tp));
        }
        SbpmgTestDestroyVecs(&up, &us, NULL);
        PCALL(SbpProblemDestroy(&pp));
        PCALL(SbpProblemDestroy(&ps));
      }
  print_message("  worst difference from one rank: %.1e\n", worst);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_references),
    cmocka_unit_test(test_convergence),
    cmocka_unit_test(test_ranks),
};

SBPMG_TEST_MAIN(help, tests)
