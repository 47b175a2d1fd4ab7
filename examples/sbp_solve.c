/* Solve the manufactured SBP-SAT problem of spec-sbp-sat.md (curved basin by default) with any PETSc KSP/PC.

     sbp_solve -sbp_n 256                                   CG + sbpmg on the device (the default)
     sbp_solve -sbp_n 256 -sbp_operator assembled -ksp_type preonly -pc_type cholesky -pc_factor_mat_solver_type cholmod
     sbp_solve -sbp_n 256 -sbp_operator assembled -pc_type gamg

   Prints N, the device, iterations, both error norms of spec section 7, and set-up and solve times. */
#include <sbpmg.h>

static const char help[] = "Solve the SBP-SAT manufactured problem with a PETSc KSP (default CG + sbpmg).\n"
                           "  -sbp_operator <matfree|assembled> : the operator handed to the KSP (default matfree)\n"
                           "  -sbp_pmat <same|assembled>        : the preconditioning matrix (default same)\n"
                           "  -sbp_solve_repeat <n>             : solve n times, report the last (the first includes kernel builds)\n";

typedef enum { OPERATOR_MATFREE, OPERATOR_ASSEMBLED } OperatorType;
static const char *const OperatorTypes[] = {"matfree", "assembled", "OperatorType", "OPERATOR_", NULL};
typedef enum { PMAT_SAME, PMAT_ASSEMBLED } PmatType;
static const char *const PmatTypes[] = {"same", "assembled", "PmatType", "PMAT_", NULL};

int main(int argc, char **argv)
{
  SbpProblem         p;
  Mat                A, P = NULL;
  Vec                u, g;
  KSP                ksp;
  PC                 pc;
  OperatorType       optype = OPERATOR_MATFREE;
  PmatType           pmtype = PMAT_SAME;
  PetscInt           Nr, Ns, its, repeat = 1;
  PetscReal          eH, eJH, rnorm;
  PetscLogDouble     t0, t1, t2, tsetup, tsolve = 0;
  PetscLogStage      stage_setup, stage_solve;
  KSPConvergedReason reason;
  SbpBackend         backend;
  PetscBool          assembled, pmat_assembled;
  const char        *device = "host";

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SbpmgInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "sbp_solve options", NULL);
  PetscCall(PetscOptionsEnum("-sbp_operator", "Operator handed to the KSP", NULL, OperatorTypes, (PetscEnum)optype, (PetscEnum *)&optype, NULL));
  PetscCall(PetscOptionsEnum("-sbp_pmat", "Preconditioning matrix", NULL, PmatTypes, (PetscEnum)pmtype, (PetscEnum *)&pmtype, NULL));
  PetscCall(PetscOptionsInt("-sbp_solve_repeat", "Number of solves (timing of the last)", NULL, repeat, &repeat, NULL));
  PetscOptionsEnd();
  assembled      = optype == OPERATOR_ASSEMBLED ? PETSC_TRUE : PETSC_FALSE;
  pmat_assembled = pmtype == PMAT_ASSEMBLED ? PETSC_TRUE : PETSC_FALSE;
  PetscCheck(repeat >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-sbp_solve_repeat %" PetscInt_FMT " must be >= 1", repeat);
  PetscCall(PetscLogStageRegister("Setup", &stage_setup));
  PetscCall(PetscLogStageRegister("Solve", &stage_solve));

  PetscCall(PetscLogStagePush(stage_setup));
  PetscCall(PetscTime(&t0));
  PetscCall(SbpProblemCreate(PETSC_COMM_WORLD, &p));
  if (assembled) PetscCall(SbpProblemSetBackend(p, SBP_BACKEND_HOST)); /* assembled matrices act on host vectors */
  PetscCall(SbpProblemSetFromOptions(p));
  PetscCall(SbpProblemSetUp(p));
  PetscCall(SbpProblemGetSizes(p, &Nr, &Ns));
  PetscCall(SbpProblemGetBackend(p, &backend));
  if (backend == SBP_BACKEND_DEVICE) {
    SbpmgCL cl;
    PetscCall(SbpmgCLGetDefault(&cl));
    PetscCall(SbpmgCLGetDeviceName(cl, &device));
  }
  if (assembled)
    PetscCall(SbpProblemCreateAssembledOperator(p, &A));
  else
    PetscCall(SbpProblemCreateOperator(p, &A));
  if (pmat_assembled && !assembled) PetscCall(SbpProblemCreateAssembledOperator(p, &P));
  PetscCall(MatCreateVecs(A, &u, &g));
  PetscCall(SbpProblemComputeRHS(p, g));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, P ? P : A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCSBPMG));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetUp(ksp));
  PetscCall(PetscTime(&t1));
  tsetup = t1 - t0;
  PetscCall(PetscLogStagePop());

  PetscCall(PetscLogStagePush(stage_solve));
  for (PetscInt r = 0; r < repeat; r++) {
    PetscCall(VecSet(u, 0));
    PetscCall(PetscBarrier((PetscObject)ksp));
    PetscCall(PetscTime(&t1));
    PetscCall(KSPSolve(ksp, g, u));
    if (backend == SBP_BACKEND_DEVICE) {
      SbpmgCL cl;
      PetscCall(SbpmgCLGetDefault(&cl));
      PetscCall(SbpmgCLFinish(cl));
    }
    PetscCall(PetscBarrier((PetscObject)ksp));
    PetscCall(PetscTime(&t2));
    tsolve = t2 - t1;
  }
  PetscCall(PetscLogStagePop());

  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetResidualNorm(ksp, &rnorm));
  PetscCall(SbpProblemComputeError(p, u, &eH, &eJH));
  PetscCall(
      PetscPrintf(PETSC_COMM_WORLD, "SBP-SAT %" PetscInt_FMT " x %" PetscInt_FMT " (%" PetscInt_FMT " unknowns) on %s\n", Nr, Ns, (Nr + 1) * (Ns + 1), device));
  {
    KSPType ktype;
    PCType  ptype;
    PetscCall(KSPGetType(ksp, &ktype));
    PetscCall(PCGetType(pc, &ptype));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  KSP %s + PC %s: %" PetscInt_FMT " iterations, %s, residual norm %.3e\n", ktype, ptype, its,
                          KSPConvergedReasons[reason], (double)rnorm));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  error ||e||_H = %.6e  ||e||_JH = %.6e\n", (double)eH, (double)eJH));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  set-up %.4f s, solve %.4f s (%.3f ms per iteration)\n", tsetup, tsolve, its ? 1e3 * tsolve / its : 0.0));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "The solve did not converge: %s", KSPConvergedReasons[reason]);

  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&g));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&P));
  PetscCall(SbpProblemDestroy(&p));
  PetscCall(PetscFinalize());
  return 0;
}
