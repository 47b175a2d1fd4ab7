/* The discrete Green's function mode of the BP1-QD driver (docs/seas.md "The Green's function mode"). The fault stress is affine in
   the slip and the time: tau(delta, t) = tau0 + G delta + t g, with G's column j the stress of unit slip at fault node j and g that of
   the plate loading per second (Vp t / 2 on face 2 and on face 1 below Wf), both through the volume path the driver steps with (the
   solve, the traction of face 1 and the SAT correction: src/seas/run.c SeasVolumeStress()). Made once by nf + 1 solves through the
   driver's KSP (or read from -seas_green_file), kept on the device, then each stage's stress is one dense mat-vec
   (kernels/green.cl) and no volume solve. */
#include <sbpmg/private/seasimpl.h>
#include "sbpmg_kernel_args.h"

#define SEAS_GREEN_MAGIC 36.0503 /* a Green's function file's first number: this layout (36.0502: without the order) */
#define SEAS_GREEN_NHEAD 11      /* magic, nf, N[0], N[1], L[0], L[1], l[0], l[1], mu, Wf, the SBP-SAT order */

/* The arguments of kernels/green.cl's green_stress, by name (include/sbpmg/private/climpl.h SBPMG_CL_SET_ARGS). */
typedef struct {
  SbpmgCLArgValue n, tau0, t, G, g, state, tau;
} SeasGreenArgs;

struct _SeasGreen {
  PetscInt       nf;
  PetscReal     *G, *g; /* host: G row-major (row i: the stress at node i), g */
  SbpmgCL        cl;    /* the device's copy (fp64) and the kernel */
  cl_mem         Gd, gd;
  cl_kernel      k;
  size_t         wg;
  PetscLogDouble time;        /* the set-up's wall time: the solves (or the file's read) and the upload */
  PetscInt       solves, its; /* the set-up's solves and their CG iterations */
  PetscBool      loaded, saved;
};

/*@C
   SeasSetGreenFunction - Compute the fault stress by the discrete Green's function (docs/seas.md "The Green's function mode"): nf + 1
   volume solves at set-up, then one dense mat-vec per stage and no volume solve. With a file name, G is read from that file when it
   exists (it must be of this grid), else computed and written there (PETSc binary). Same as -seas_green and -seas_green_file.

   Logically collective; before SeasSetUp()

   Level: intermediate

.seealso: `SeasSetUp()`, `SeasSummary()`
@*/
PetscErrorCode SeasSetGreenFunction(Seas s, PetscBool flg, const char file[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, SEAS_CLASSID, 1);
  PetscCheck(!s->setupcalled, PetscObjectComm((PetscObject)s), PETSC_ERR_ORDER, "SeasSetGreenFunction() after SeasSetUp(): call it before");
  s->green = flg;
  PetscCall(PetscStrncpy(s->green_file, file ? file : "", sizeof(s->green_file)));
  PetscFunctionReturn(0);
}

PetscErrorCode SeasGreenSetFromOptions(PetscOptionItems *PetscOptionsObject, Seas s)
{
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(PetscOptionsBool("-seas_green", "Fault stress by the discrete Green's function: nf + 1 solves up front, none while stepping",
                             "SeasSetGreenFunction", s->green, &s->green, NULL));
  PetscCall(PetscOptionsString("-seas_green_file", "Green's function file (PETSc binary): read if it exists, else computed and written (implies -seas_green)",
                               "SeasSetGreenFunction", s->green_file, s->green_file, sizeof(s->green_file), &set));
  if (set && s->green_file[0]) s->green = PETSC_TRUE;
  PetscCall(PetscOptionsReal("-seas_green_max_mb", "The Green's function's size at most, MiB (0: the device's largest buffer, or half the free host memory)",
                             "SeasSetGreenFunction", s->green_max_mb, &s->green_max_mb, NULL));
  PetscCall(PetscOptionsBool("-seas_green_cold", "Each Green's function solve from zero (default: from the last column's solution)", "SeasSetGreenFunction",
                             s->green_cold, &s->green_cold, NULL));
  PetscFunctionReturn(0);
}

/* G's bytes against the limit: -seas_green_max_mb, else the device's largest buffer (and half its memory), else half the free host
   memory. An error naming both sizes. */
static PetscErrorCode SeasGreenCheckSize(Seas s)
{
  MPI_Comm     comm = PetscObjectComm((PetscObject)s);
  const double need = (double)s->nf * (double)s->nf * sizeof(PetscReal);
  double       limit;
  const char  *what;

  PetscFunctionBegin;
  PetscCheck(s->green_max_mb >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-seas_green_max_mb %g must be >= 0 (0: the device's limit)", (double)s->green_max_mb);
  if (s->green_max_mb > 0) {
    limit = s->green_max_mb * 1048576.0;
    what  = "-seas_green_max_mb";
  } else if (s->p->use_device) {
    limit = PetscMin((double)s->p->cl->max_alloc, (double)s->p->cl->global_mem / 2);
    what  = "the device's largest buffer";
  } else {
    size_t avail;
    PetscCall(SbpmgCLHostAvailable(&avail));
    limit = (double)avail / 2;
    what  = "half the free host memory";
  }
  PetscCheck(need <= limit, comm, PETSC_ERR_MEM,
             "-seas_green: the Green's function of %" PetscInt_FMT " fault nodes is a dense %" PetscInt_FMT " x %" PetscInt_FMT
             " matrix of %.4g MiB (nf^2 x 8 bytes), more than the limit of %.4g MiB (%s); use the volume path (no -seas_green) or fewer fault nodes",
             s->nf, s->nf, s->nf, need / 1048576.0, limit / 1048576.0, what);
  PetscFunctionReturn(0);
}

/* What G depends on: the grid, the medium, the fault's nodes and the operator's order (-sbp_order). */
static void SeasGreenHeader(Seas s, PetscReal head[SEAS_GREEN_NHEAD])
{
  head[0]  = SEAS_GREEN_MAGIC;
  head[1]  = (PetscReal)s->nf;
  head[2]  = (PetscReal)s->N[0];
  head[3]  = (PetscReal)s->N[1];
  head[4]  = s->L[0];
  head[5]  = s->L[1];
  head[6]  = s->l[0];
  head[7]  = s->l[1];
  head[8]  = s->mu;
  head[9]  = s->Wf;
  head[10] = (PetscReal)s->p->order;
}

static PetscErrorCode SeasGreenViewer(Seas s, const char name[], PetscFileMode mode, PetscViewer *v)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerCreate(PETSC_COMM_SELF, v));
  PetscCall(PetscViewerSetType(*v, PETSCVIEWERBINARY));
  PetscCall(PetscViewerBinarySetSkipInfo(*v, PETSC_TRUE));
  PetscCall(PetscViewerFileSetMode(*v, mode));
  PetscCall(PetscViewerFileSetName(*v, name));
  PetscFunctionReturn(0);
}

/* G and g into -seas_green_file (written to <file>.tmp, then renamed). */
static PetscErrorCode SeasGreenSave(Seas s, struct _SeasGreen *gr)
{
  char        tmp[PETSC_MAX_PATH_LEN + 8];
  PetscReal   head[SEAS_GREEN_NHEAD];
  PetscViewer v;

  PetscFunctionBegin;
  SeasGreenHeader(s, head);
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp", s->green_file));
  PetscCall(SeasGreenViewer(s, tmp, FILE_MODE_WRITE, &v));
  PetscCall(PetscViewerBinaryWrite(v, head, SEAS_GREEN_NHEAD, PETSC_REAL));
  PetscCall(PetscViewerBinaryWrite(v, gr->G, gr->nf * gr->nf, PETSC_REAL));
  PetscCall(PetscViewerBinaryWrite(v, gr->g, gr->nf, PETSC_REAL));
  PetscCall(PetscViewerDestroy(&v));
  PetscCheck(rename(tmp, s->green_file) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot rename %s to the Green's function file -seas_green_file %s", tmp,
             s->green_file);
  gr->saved = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* G and g from -seas_green_file, which must be of this grid, medium and fault. */
static PetscErrorCode SeasGreenLoad(Seas s, struct _SeasGreen *gr)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)s);
  PetscReal   head[SEAS_GREEN_NHEAD], mine[SEAS_GREEN_NHEAD];
  PetscViewer v;
  PetscBool   same = PETSC_TRUE;

  PetscFunctionBegin;
  SeasGreenHeader(s, mine);
  PetscCall(SeasGreenViewer(s, s->green_file, FILE_MODE_READ, &v));
  PetscCall(PetscViewerBinaryRead(v, head, SEAS_GREEN_NHEAD, NULL, PETSC_REAL));
  for (int q = 0; q < SEAS_GREEN_NHEAD; q++) same = (PetscBool)(same && head[q] == mine[q]);
  if (!same) PetscCall(PetscViewerDestroy(&v)); /* the errors below */
  PetscCheck(head[0] == SEAS_GREEN_MAGIC, comm, PETSC_ERR_FILE_UNEXPECTED,
             "-seas_green_file %s is not a Green's function file of this version of the BP1-QD driver", s->green_file);
  PetscCheck(same, comm, PETSC_ERR_ARG_INCOMP,
             "The Green's function file -seas_green_file %s is of a %" PetscInt_FMT " x %" PetscInt_FMT
             " grid (domain %g x %g m, stretching %g, %g m, mu %g Pa, Wf %g m, %" PetscInt_FMT " fault nodes, -sbp_order %" PetscInt_FMT
             "); this run has %" PetscInt_FMT " x %" PetscInt_FMT " (domain %g x %g m, stretching %g, %g m, mu %g Pa, Wf %g m, %" PetscInt_FMT
             " fault nodes, -sbp_order %" PetscInt_FMT ")",
             s->green_file, (PetscInt)head[2], (PetscInt)head[3], (double)head[4], (double)head[5], (double)head[6], (double)head[7], (double)head[8],
             (double)head[9], (PetscInt)head[1], (PetscInt)head[10], s->N[0], s->N[1], (double)s->L[0], (double)s->L[1], (double)s->l[0], (double)s->l[1],
             (double)s->mu, (double)s->Wf, s->nf, s->p->order);
  PetscCall(PetscViewerBinaryRead(v, gr->G, gr->nf * gr->nf, NULL, PETSC_REAL));
  PetscCall(PetscViewerBinaryRead(v, gr->g, gr->nf, NULL, PETSC_REAL));
  PetscCall(PetscViewerDestroy(&v));
  gr->loaded = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* G's columns and g by the volume path: delta = e_j at t = 0, then delta = 0 at t = one year (scaled back per second), with tau0 = 0 so
   that nothing is lost to cancellation. The solves' test is the KSP's relative one without the absolute floor (made for the stepping's
   round-off right-hand sides). From zero with -seas_green_cold, else from the last column's solution. */
static PetscErrorCode SeasGreenBuild(Seas s, struct _SeasGreen *gr)
{
  const PetscInt  nf   = gr->nf;
  const PetscReal tau0 = s->tau0;
  PetscReal       rtol, atol, dtol;
  PetscInt        maxit, its;
  Vec             Xw;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(s->X, &Xw));
  PetscCall(KSPGetTolerances(s->ksp, &rtol, &atol, &dtol, &maxit));
  PetscCall(KSPSetTolerances(s->ksp, rtol, 0.0, dtol, maxit));
  PetscCall(VecSet(s->u, 0));
  s->tau0 = 0;
  for (PetscInt j = 0; j <= nf; j++) {
    PetscScalar       *xa;
    const PetscScalar *ta;

    PetscCall(VecGetArrayWrite(Xw, &xa));
    for (PetscInt k = 0; k < 2 * nf; k++) xa[k] = 0;
    if (j < nf) xa[nf + j] = 1;
    PetscCall(VecRestoreArrayWrite(Xw, &xa));
    if (s->green_cold) PetscCall(VecSet(s->u, 0));
    PetscCall(SeasVolumeStress(s, j < nf ? 0 : SEAS_YEAR, Xw, &its));
    gr->solves++;
    gr->its += its;
    PetscCall(VecGetArrayRead(s->tau, &ta));
    if (j < nf)
      for (PetscInt i = 0; i < nf; i++) gr->G[i * nf + j] = PetscRealPart(ta[i]);
    else
      for (PetscInt i = 0; i < nf; i++) gr->g[i] = PetscRealPart(ta[i]) / SEAS_YEAR;
    PetscCall(VecRestoreArrayRead(s->tau, &ta));
  }
  s->tau0 = tau0;
  PetscCall(KSPSetTolerances(s->ksp, rtol, atol, dtol, maxit));
  PetscCall(VecSet(s->u, 0)); /* the Green mode computes no volume solution */
  PetscCall(VecDestroy(&Xw));
  PetscFunctionReturn(0);
}

/* G and g onto the device, and the kernel (the host keeps its copy: the reference loop of a host state, the tests). */
static PetscErrorCode SeasGreenUpload(Seas s, struct _SeasGreen *gr)
{
  SbpmgCL cl = s->p->cl;
  char    opts[64];
  cl_uint nargs;

  PetscFunctionBegin;
  gr->wg = 1;
  while (2 * gr->wg <= PetscMin((size_t)128, cl->max_work_group_size)) gr->wg *= 2;
  PetscCall(PetscSNPrintf(opts, sizeof(opts), "-DSBPMG_GREEN_WG=%d", (int)gr->wg));
  PetscCall(SbpmgCLGetKernel(cl, "green", opts, "green_stress", &gr->k));
  PetscCallCL(clGetKernelInfo(gr->k, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL));
  PetscCheck(nargs == SBPMG_KERNEL_NARGS_green_stress, PETSC_COMM_SELF, PETSC_ERR_PLIB, "kernels/green.cl's green_stress takes %u arguments, src/seas sets %d",
             nargs, (int)SBPMG_KERNEL_NARGS_green_stress);
  PetscCall(SbpmgCLReference(cl));
  gr->cl = cl;
  PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_ONLY, (size_t)gr->nf * gr->nf * sizeof(PetscReal), &gr->Gd));
  PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_ONLY, (size_t)gr->nf * sizeof(PetscReal), &gr->gd));
  PetscCall(SbpmgCLWriteBuffer(cl, gr->Gd, 0, (size_t)gr->nf * gr->nf * sizeof(PetscReal), gr->G));
  PetscCall(SbpmgCLWriteBuffer(cl, gr->gd, 0, (size_t)gr->nf * sizeof(PetscReal), gr->g));
  PetscCall(SbpmgCLFinish(cl));
  PetscFunctionReturn(0);
}

/* G and g (SeasSetUp(), after the KSP's set-up): from -seas_green_file if it exists, else by nf + 1 solves (and into the file if one is
   named); then onto the device. */
PetscErrorCode SeasGreenSetUp(Seas s)
{
  struct _SeasGreen *gr;
  PetscLogDouble     t0, t1;
  PetscBool          exists = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(SeasGreenCheckSize(s));
  PetscCall(PetscLogEventBegin(SEAS_GreenSetUp, 0, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  PetscCall(PetscNew(&gr));
  s->gr  = gr;
  gr->nf = s->nf;
  PetscCall(PetscMalloc1(s->nf * s->nf, &gr->G));
  PetscCall(PetscMalloc1(s->nf, &gr->g));
  if (s->green_file[0]) PetscCall(PetscTestFile(s->green_file, 'r', &exists));
  if (exists)
    PetscCall(SeasGreenLoad(s, gr));
  else {
    PetscCall(SeasGreenBuild(s, gr));
    if (s->green_file[0]) PetscCall(SeasGreenSave(s, gr));
  }
  if (s->p->use_device) PetscCall(SeasGreenUpload(s, gr));
  PetscCall(PetscTime(&t1));
  gr->time = t1 - t0;
  PetscCall(PetscLogEventEnd(SEAS_GreenSetUp, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* s->tau = tau0 + G delta + t g at the state X: one launch of kernels/green.cl where X is a device vector, else C loops. */
PetscErrorCode SeasGreenStress(Seas s, PetscReal t, Vec X)
{
  struct _SeasGreen *gr  = s->gr;
  const PetscInt     nf  = gr->nf;
  PetscBool          dev = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SEAS_FaultStress, 0, 0, 0, 0));
  if (gr->k) {
    PetscCall(SeasStateToDevice(s, X, &X));
    PetscCall(VecIsOpenCL(X, &dev));
  }
  if (dev) {
    const int n = (int)nf;
    cl_mem    xb, tb;

    PetscCall(VecOpenCLGetBufferRead(X, &xb));
    PetscCall(VecOpenCLGetBufferWrite(s->tau, &tb));
    {
      const SeasGreenArgs args = {.n     = SbpmgCLArgInt(n),
                                  .tau0  = SbpmgCLArgReal(PETSC_FALSE, s->tau0),
                                  .t     = SbpmgCLArgReal(PETSC_FALSE, t),
                                  .G     = SbpmgCLArgMem(gr->Gd),
                                  .g     = SbpmgCLArgMem(gr->gd),
                                  .state = SbpmgCLArgMem(xb),
                                  .tau   = SbpmgCLArgMem(tb)};
      SBPMG_CL_SET_ARGS(gr->k, green_stress, &args);
    }
    PetscCall(SbpmgCLLaunch1D(gr->cl, gr->k, (size_t)nf * gr->wg, gr->wg));
    PetscCall(VecOpenCLRestoreBufferWrite(s->tau, &tb));
    PetscCall(VecOpenCLRestoreBufferRead(X, &xb));
  } else {
    const PetscScalar *xa;
    PetscScalar       *ta;

    PetscCall(VecGetArrayRead(X, &xa));
    PetscCall(VecGetArrayWrite(s->tau, &ta));
    for (PetscInt i = 0; i < nf; i++) {
      const PetscReal *a   = gr->G + i * nf;
      PetscReal        sum = 0;
      for (PetscInt j = 0; j < nf; j++) sum += a[j] * PetscRealPart(xa[nf + j]);
      ta[i] = s->tau0 + t * gr->g[i] + sum;
    }
    PetscCall(VecRestoreArrayWrite(s->tau, &ta));
    PetscCall(VecRestoreArrayRead(X, &xa));
  }
  PetscCall(PetscLogEventEnd(SEAS_FaultStress, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* The summary's line on how the fault stress was computed (the Green mode's set-up apart from the stepping's wall time). */
PetscErrorCode SeasGreenView(Seas s, PetscViewer v)
{
  struct _SeasGreen *gr = s->gr;

  PetscFunctionBegin;
  if (!gr) {
    PetscCall(PetscViewerASCIIPrintf(
        v, "  mode: volume solve (one solve per stage), initial guess projected onto the last %" PetscInt_FMT " solutions (-seas_guess_basis)\n", s->guess_m));
    PetscFunctionReturn(0);
  }
  if (gr->loaded)
    PetscCall(PetscViewerASCIIPrintf(v, "  mode: Green's function; G set-up %.2f s (%" PetscInt_FMT " x %" PetscInt_FMT ", %.4g MiB, read from %s)\n",
                                     (double)gr->time, gr->nf, gr->nf, (double)gr->nf * gr->nf * 8 / 1048576.0, s->green_file));
  else
    PetscCall(PetscViewerASCIIPrintf(v,
                                     "  mode: Green's function; G set-up %.2f s (%" PetscInt_FMT " x %" PetscInt_FMT ", %.4g MiB, %" PetscInt_FMT
                                     " solves from %s, CG iterations per solve %.2f%s%s)\n",
                                     (double)gr->time, gr->nf, gr->nf, (double)gr->nf * gr->nf * 8 / 1048576.0, gr->solves,
                                     s->green_cold ? "zero" : "the last column", gr->solves ? (double)gr->its / gr->solves : 0.0,
                                     gr->saved ? "; written to " : "", gr->saved ? s->green_file : ""));
  PetscFunctionReturn(0);
}

PetscErrorCode SeasGreenDestroy(Seas s)
{
  struct _SeasGreen *gr = s->gr;

  PetscFunctionBegin;
  if (!gr) PetscFunctionReturn(0);
  if (gr->Gd) PetscCall(SbpmgCLReleaseBuffer(gr->cl, &gr->Gd));
  if (gr->gd) PetscCall(SbpmgCLReleaseBuffer(gr->cl, &gr->gd));
  gr->k = NULL; /* owned by the context's program cache */
  if (gr->cl) PetscCall(SbpmgCLDestroy(&gr->cl));
  PetscCall(PetscFree(gr->G));
  PetscCall(PetscFree(gr->g));
  PetscCall(PetscFree(s->gr));
  PetscFunctionReturn(0);
}
