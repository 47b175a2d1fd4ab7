/* The device side of an SbpProblem: its tuning (the rows of include/sbpmg/private/tuning.h), the interior/rim split, the launches
   over a region of the owned block (on one rank the whole grid), and the device buffers of a launch's vectors. */
#include <sbpmg/private/sbpimpl.h>
#include "sbpmg_kernel_args.h"

/* The CPU column of the tuning table: a problem on the host backend has no device context to take its tuning from (src/cl/tuning.c
   resolves a context's column); the multigrid layer reads its rows from the problem's. */
#define SBP_TUNING_CPU_(key, cpu, gpu, nv, lo, hi, doc) t->key = cpu;
static void SbpTuningCPUColumn(SbpmgTuning *t){SBPMG_TUNING(SBP_TUNING_CPU_)}
#undef SBP_TUNING_CPU_

PetscErrorCode SbpProblemSetTuning(SbpProblem p, const char overrides[])
{
  SbpmgTuning check;

  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "the tuning"));
  SbpTuningCPUColumn(&check);
  PetscCall(SbpmgTuningParse(overrides, &check)); /* an unknown key or a value out of range fails here */
  PetscCall(PetscStrncpy(p->tune_opts, overrides ? overrides : "", sizeof(p->tune_opts)));
  PetscFunctionReturn(0);
}

/* The problem's tuning: its device context's (the CPU column on the host) with the problem's overrides, unless given (coarsened). */
PetscErrorCode SbpProblemSetUpTuning(SbpProblem p)
{
  PetscFunctionBegin;
  if (!p->tune_set) {
    if (p->cl)
      p->tune = p->cl->tune;
    else
      SbpTuningCPUColumn(&p->tune);
    PetscCall(SbpmgTuningParse(p->tune_opts, &p->tune));
    p->tune_set = PETSC_TRUE;
  }
  p->wg[0] = (size_t)p->tune.sbp_wg_x;
  p->wg[1] = (size_t)p->tune.sbp_wg_y;
  if (p->cl && p->cl->max_work_group_size) { /* refused here, naming the tuning rows, rather than as CL_INVALID_WORK_GROUP_SIZE at a launch */
    const size_t wgmax = p->cl->max_work_group_size;
    PetscCheck(p->wg[0] * p->wg[1] <= wgmax, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE,
               "Work-group sbp_wg_x=%" PetscInt_FMT " x sbp_wg_y=%" PetscInt_FMT
               " (tuning, -sbpmg_tune) = %zu work-items exceeds the work-group limit %zu of %s",
               p->tune.sbp_wg_x, p->tune.sbp_wg_y, p->wg[0] * p->wg[1], wgmax, p->cl->device_name);
    PetscCheck((size_t)p->tune.sbp_rim_wg <= wgmax, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE,
               "Work-group sbp_rim_wg=%" PetscInt_FMT " (tuning, -sbpmg_tune) exceeds the work-group limit %zu of %s", p->tune.sbp_rim_wg, wgmax,
               p->cl->device_name);
  }
  PetscCheck(p->tune.sbp_rim_wg % p->tune.sbp_wide_lanes == 0, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE,
             "Tuning sbp_wide_lanes=%" PetscInt_FMT " (work-items a rim node of the order-4 and 6 kernels) must divide sbp_rim_wg=%" PetscInt_FMT
             " (their work-group)",
             p->tune.sbp_wide_lanes, p->tune.sbp_rim_wg);
  PetscFunctionReturn(0);
}

/* Whether the lean interior kernels run: sbp_split, where the interior box has at least sbp_split_min nodes. */
PetscErrorCode SbpProblemSetUpSplit(SbpProblem p)
{
  PetscInt64 nin = (PetscInt64)PetscMax(p->in[2] - p->in[0] + 1, 0) * PetscMax(p->in[3] - p->in[1] + 1, 0);

  PetscFunctionBegin;
  p->split_on = (p->tune.sbp_split && nin >= p->tune.sbp_split_min) ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- launches */

/* A 2D launch with the problem's work-group (sbp_wg_x x sbp_wg_y). */
PetscErrorCode SbpProblemLaunch2D(SbpProblem p, cl_kernel k, const size_t global[2])
{
  PetscFunctionBegin;
  PetscCall(SbpmgCLLaunch2D(p->cl, k, global, p->wg));
  PetscFunctionReturn(0);
}

/* The kernels' int4 arguments of a rank's layout: the ghosted patch (gxs, gys, gxm, gym) and the owned block (xs, ys, xm, ym);
   either may be NULL. */
void SbpProblemPatchBoxes(SbpProblem p, cl_int4 *gh, cl_int4 *own)
{
  if (gh) {
    gh->s[0] = (cl_int)p->gxs;
    gh->s[1] = (cl_int)p->gys;
    gh->s[2] = (cl_int)p->gxm;
    gh->s[3] = (cl_int)p->gym;
  }
  if (own) {
    own->s[0] = (cl_int)p->xs;
    own->s[1] = (cl_int)p->ys;
    own->s[2] = (cl_int)p->xm;
    own->s[3] = (cl_int)p->ym;
  }
}

/* The launches below set a kernel's region boxes from the index `first` of its gh on (SBPMG_KERNEL_ARG_<kernel>_gh): gh, own, in and
   mode in a row, in every kernel launched through them. */
#define SBP_REGION_ARGS_IN_A_ROW(kernel)                                                                                                            \
  (SBPMG_KERNEL_ARG_##kernel##_own == SBPMG_KERNEL_ARG_##kernel##_gh + 1 && SBPMG_KERNEL_ARG_##kernel##_in == SBPMG_KERNEL_ARG_##kernel##_gh + 2 && \
   SBPMG_KERNEL_ARG_##kernel##_mode == SBPMG_KERNEL_ARG_##kernel##_gh + 3)
_Static_assert(SBP_REGION_ARGS_IN_A_ROW(sbp_apply_patch) && SBP_REGION_ARGS_IN_A_ROW(sbp_apply_inner) && SBP_REGION_ARGS_IN_A_ROW(sbp_norm_patch) &&
                   SBP_REGION_ARGS_IN_A_ROW(wide_apply_patch) && SBP_REGION_ARGS_IN_A_ROW(wide_apply_inner) &&
                   SBP_REGION_ARGS_IN_A_ROW(wide_apply_inner_cross) && SBP_REGION_ARGS_IN_A_ROW(wide_norm_patch) &&
                   SBP_REGION_ARGS_IN_A_ROW(wide_smooth_patch) && SBP_REGION_ARGS_IN_A_ROW(wide_smooth_inner) &&
                   SBP_REGION_ARGS_IN_A_ROW(wide_smooth_inner_cross) && SBP_REGION_ARGS_IN_A_ROW(mg_smooth_patch) && SBP_REGION_ARGS_IN_A_ROW(mg_smooth_inner),
               "a kernel launched over a region takes gh, own, in and mode in a row");
#undef SBP_REGION_ARGS_IN_A_ROW

/*@C
   SbpProblemLaunchRegion - Launch a kernel of kernels/sbp.cl ("the kernels: a region of a rank's owned block") over a region of
   the owned nodes: set its four region arguments, from index first on (SBPMG_KERNEL_ARG_<kernel>_gh: the ghosted patch, the owned
   block, the interior box, the region), and enqueue it over the region's range. An empty region launches nothing.

   Not collective

   Level: developer

.seealso: `SbpProblemLaunchBox()`
@*/
PetscErrorCode SbpProblemLaunchRegion(SbpProblem p, cl_kernel k, cl_uint first, SbpRegion region)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemLaunchBox(p, k, first, region, p->in));
  PetscFunctionReturn(0);
}

/* The interior box's columns exactly (tuning sbp_inner_whole; kernels/sbp.cl SBPMG_SBP_INNER_WHOLE, no column guard): the whole work-groups
   that fit, then the columns left as one work-group of their width from the box moved past them (its argument `in`, index first + 2,
   set again). The rows stay rounded up to the work-group: their guard is uniform in a work-group's row, no mask. */
static PetscErrorCode SbpProblemLaunchWhole(SbpProblem p, cl_kernel k, cl_uint first, const size_t global[2], const cl_int4 *in)
{
  const size_t wx = p->wg[0], whole = global[0] / wx * wx, rest = global[0] - whole;

  PetscFunctionBegin;
  if (whole) {
    const size_t g[2] = {whole, global[1]};
    PetscCall(SbpProblemLaunch2D(p, k, g));
  }
  if (rest) {
    const size_t g[2] = {rest, global[1]}, l[2] = {rest, p->wg[1]};
    cl_int4      box = *in;

    box.s[0] += (cl_int)whole;
    PetscCall(SbpmgCLSetArgs(k, first + 2, 1, sizeof(cl_int4), &box));
    PetscCall(SbpmgCLLaunch2D(p->cl, k, g, l));
  }
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemLaunchBox - SbpProblemLaunchRegion() with another box of owned nodes in place of the interior box (ilo, jlo, ihi, jhi;
   empty as the set-up leaves it): a caller that covers a smaller box by other kernels runs the rim of that box.

   Not collective

   Level: developer
@*/
PetscErrorCode SbpProblemLaunchBox(SbpProblem p, cl_kernel k, cl_uint first, SbpRegion region, const PetscInt box[4])
{
  PetscFunctionBegin;
  PetscCall(SbpProblemLaunchBoxLanes(p, k, first, region, box, 1));
  PetscFunctionReturn(0);
}

/* An empty box (ilo > ihi) whose rim is every owned node (kernels/sbp.cl sbp_rim_node: all of them rows below it). */
void SbpProblemEmptyBox(SbpProblem p, PetscInt box[4])
{
  box[0] = p->xs;
  box[2] = p->xs - 1;
  box[1] = p->ys + p->ym;
  box[3] = p->ys + p->ym - 1;
}

/*@C
   SbpProblemLaunchBoxLanes - SbpProblemLaunchBox() of a kernel that takes lanes work-items a node of the rim (lanes divides the
   tuning's sbp_rim_wg; with lanes > 1 the region SBP_REGION_ALL is launched as the rim of an empty box, and SBP_REGION_INTERIOR is
   not taken): the order-4 and 6 gather kernels, which sum a rim node's row in lanes shares.

   Not collective

   Level: developer
@*/
PetscErrorCode SbpProblemLaunchBoxLanes(SbpProblem p, cl_kernel k, cl_uint first, SbpRegion region, const PetscInt box[4], PetscInt lanes)
{
  cl_int4 gh, own, in;
  int     mode = (int)region;
  size_t  ni = (size_t)PetscMax(box[2] - box[0] + 1, 0), nj = (size_t)PetscMax(box[3] - box[1] + 1, 0);

  PetscFunctionBegin;
  PetscCheck(lanes == 1 || region != SBP_REGION_INTERIOR, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Lanes (%" PetscInt_FMT ") over the interior box", lanes);
  if (lanes > 1 && region == SBP_REGION_ALL) { /* every owned node as the rim of an empty box: the 1D launch that takes lanes */
    PetscInt none[4];
    SbpProblemEmptyBox(p, none);
    PetscCall(SbpProblemLaunchBoxLanes(p, k, first, SBP_REGION_RIM, none, lanes));
    PetscFunctionReturn(0);
  }
  SbpProblemPatchBoxes(p, &gh, &own);
  for (int d = 0; d < 4; d++) in.s[d] = (cl_int)box[d];
  PetscCall(SbpmgCLSetArgs(k, first, 4, sizeof(cl_int4), &gh, sizeof(cl_int4), &own, sizeof(cl_int4), &in, sizeof(int), &mode));
  switch (region) {
  case SBP_REGION_ALL: {
    size_t global[2] = {(size_t)p->xm, (size_t)p->ym};
    PetscCall(SbpProblemLaunch2D(p, k, global));
  } break;
  case SBP_REGION_INTERIOR: { /* SBPMG_SBP_INNER_ROWS rows of the box per work-item (kernels/sbp.cl SBP_INNER_FOR) */
    size_t global[2] = {ni, (nj + (size_t)p->tune.sbp_inner_rows - 1) / (size_t)p->tune.sbp_inner_rows};
    if (p->tune.sbp_inner_whole)
      PetscCall(SbpProblemLaunchWhole(p, k, first, global, &in));
    else
      PetscCall(SbpProblemLaunch2D(p, k, global));
  } break;
  case SBP_REGION_RIM: /* the kernel skips the work-items past the rim's count; lanes work-items a node (kernels/sbp_wide.cl WIDE_ROW_BEGIN) */
    PetscCall(SbpmgCLLaunch1D(p->cl, k, ((size_t)(p->xm * p->ym) - ni * nj) * (size_t)lanes, (size_t)p->tune.sbp_rim_wg));
    break;
  }
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemLaunchOwned - Launch a kernel pair of kernels/sbp.cl over the owned nodes: with the split (sbp_split), kin (a lean
   *_inner kernel) over the interior box and k (a *_patch kernel) over the rim; without, k over all of them (kin may then be NULL).
   The caller has set their arguments but the region's (SBPMG_CL_SET_ARGS, the boxes left empty) on k and, with the split, on kin;
   first is the index of their gh (SBPMG_KERNEL_ARG_<kernel>_gh, the same in both).

   Not collective

   Level: developer
@*/
PetscErrorCode SbpProblemLaunchOwned(SbpProblem p, cl_kernel k, cl_kernel kin, cl_uint first)
{
  PetscFunctionBegin;
  if (p->split_on) {
    PetscCall(SbpProblemLaunchRegion(p, kin, first, SBP_REGION_INTERIOR));
    PetscCall(SbpProblemLaunchRegion(p, k, first, SBP_REGION_RIM));
  } else
    PetscCall(SbpProblemLaunchRegion(p, k, first, SBP_REGION_ALL));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemLaunchExchanged - On several ranks, launch a kernel pair (SbpProblemLaunchOwned()) that reads u with neighbours around
   the ghost exchange of u. Their arguments are set on both as for SbpProblemLaunchOwned(); the one at index uarg (the kernels' u,
   SBPMG_KERNEL_ARG_<kernel>_<name>, the same in both) becomes the ghosted patch of u.
   With overlap (sbp_overlap_min) the interior runs while the strips are in flight (the queue is flushed so that the device starts
   on it) and the rim once the ghosts are in; without, the exchange completes before the launches.

   Collective

   Level: developer
@*/
PetscErrorCode SbpProblemLaunchExchanged(SbpProblem p, Vec u, cl_kernel k, cl_kernel kin, cl_uint uarg, cl_uint first)
{
  cl_mem  ub;
  SbpHalo h;

  PetscFunctionBegin;
  PetscCall(SbpLevelGetHalo(p->level[SBP_KERNEL_FP64], &h));
  PetscCall(VecOpenCLGetBufferRead(u, &ub));
  PetscCall(SbpProblemLaunchExchangedBuffer(p, h, ub, k, kin, uarg, first));
  PetscCall(VecOpenCLRestoreBufferRead(u, &ub));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemLaunchExchangedBuffer - SbpProblemLaunchExchanged() of u held in a device buffer, through the ghost exchange h (the
   fp64 level's, or the fp32 one of SbpLevelGetHalo()).

   Collective

   Level: developer
@*/
PetscErrorCode SbpProblemLaunchExchangedBuffer(SbpProblem p, SbpHalo h, cl_mem u, cl_kernel k, cl_kernel kin, cl_uint uarg, cl_uint first)
{
  PetscFunctionBegin;
  PetscCall(SbpHaloBeginBuffer(h, u));
  PetscCall(SbpmgCLSetArg(k, uarg, sizeof(cl_mem), &h->patch));
  PetscCall(SbpmgCLSetArg(kin, uarg, sizeof(cl_mem), &h->patch));
  if (p->overlap) {
    PetscCall(SbpProblemLaunchRegion(p, kin, first, SBP_REGION_INTERIOR));
    PetscCallCL(clFlush(p->cl->queue));
    PetscCall(SbpHaloEnd(h));
    PetscCall(SbpProblemLaunchRegion(p, k, first, SBP_REGION_RIM));
  } else {
    PetscCall(SbpHaloEnd(h));
    PetscCall(SbpProblemLaunchOwned(p, k, kin, first));
  }
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the buffers of a launch */

/* The buffer of v for the given access, remembered for SbpBuffersRestore(); v = NULL gives NULL. */
PetscErrorCode SbpBuffersGet(SbpBuffers *b, Vec v, SbpAccess mode, cl_mem *mem)
{
  PetscFunctionBegin;
  *mem = NULL;
  if (!v) PetscFunctionReturn(0);
  PetscCheck(b->n < 8, PETSC_COMM_SELF, PETSC_ERR_PLIB, "More than 8 vectors in one launch");
  switch (mode) {
  case SBP_READ:
    PetscCall(VecOpenCLGetBufferRead(v, mem));
    break;
  case SBP_WRITE:
    PetscCall(VecOpenCLGetBufferWrite(v, mem));
    break;
  case SBP_READ_WRITE:
    PetscCall(VecOpenCLGetBuffer(v, mem));
    break;
  }
  b->v[b->n]    = v;
  b->mode[b->n] = mode;
  b->mem[b->n]  = *mem;
  b->n++;
  PetscFunctionReturn(0);
}

/* Restore every buffer got, in the order got. */
PetscErrorCode SbpBuffersRestore(SbpBuffers *b)
{
  PetscFunctionBegin;
  for (PetscInt t = 0; t < b->n; t++) {
    switch (b->mode[t]) {
    case SBP_READ:
      PetscCall(VecOpenCLRestoreBufferRead(b->v[t], &b->mem[t]));
      break;
    case SBP_WRITE:
      PetscCall(VecOpenCLRestoreBufferWrite(b->v[t], &b->mem[t]));
      break;
    case SBP_READ_WRITE:
      PetscCall(VecOpenCLRestoreBuffer(b->v[t], &b->mem[t]));
      break;
    }
  }
  b->n = 0;
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the device vectors of an operation */

PetscErrorCode SbpProblemCheckDeviceVec(SbpProblem p, Vec v, const char name[])
{
  PetscBool isocl;
  SbpmgCL   vcl;

  PetscFunctionBegin;
  PetscCall(VecIsOpenCL(v, &isocl));
  PetscCheck(isocl, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "The device SBP-SAT operator needs device vectors: %s has type %s; create vectors with MatCreateVecs() or SbpProblemCreateVector()", name,
             ((PetscObject)v)->type_name);
  PetscCall(VecOpenCLGetCL(v, &vcl));
  PetscCheck(vcl == p->cl, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Vector %s lives on another OpenCL context than the operator", name);
  PetscFunctionReturn(0);
}

/* Take the kernel path when the problem is on the device and every vector given (a, b, c; any may be NULL) is a device vector. */
PetscErrorCode SbpProblemUseDevice(SbpProblem p, Vec a, Vec b, Vec c, PetscBool *dev)
{
  Vec v[3] = {a, b, c};

  PetscFunctionBegin;
  *dev = p->use_device;
  for (int k = 0; k < 3 && *dev; k++) {
    PetscBool isocl;
    if (!v[k]) continue;
    PetscCall(VecIsOpenCL(v[k], &isocl));
    if (!isocl) *dev = PETSC_FALSE;
  }
  PetscFunctionReturn(0);
}
