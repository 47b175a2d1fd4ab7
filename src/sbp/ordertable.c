/* The packed table of the problem's SBP order (kernels/sbp_table.cl) on the host and, on the device backend, in a buffer the order-p
   kernels read: made on first use, freed with the set-up. */
#include <sbpmg/private/sbpimpl.h>
#include "../../kernels/sbp_table.cl"

/*@C
   SbpProblemGetOrderTable - The packed table of the problem's order: the host copy, and the device copy where the problem is on the
   device (dev may be NULL; NULL on the host backend).

   Level: developer
@*/
PetscErrorCode SbpProblemGetOrderTable(SbpProblem p, const PetscReal **tab, cl_mem *dev)
{
  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  if (!p->otab) {
    PetscReal *t;
    PetscCall(PetscMalloc1(SBP_T_SIZE, &t));
    PetscCall(SbpSparse1DPackTable(p->order, t));
    p->otab = t;
  }
  if (p->use_device && !p->d_otab) {
    cl_mem         d;
    PetscErrorCode ierr;
    PetscCall(SbpmgCLCreateBuffer(p->cl, CL_MEM_READ_ONLY, SBP_T_SIZE * sizeof(PetscReal), &d));
    ierr = SbpmgCLWriteBuffer(p->cl, d, 0, SBP_T_SIZE * sizeof(PetscReal), p->otab);
    if (ierr) PetscCall(SbpmgCLReleaseBuffer(p->cl, &d));
    PetscCall(ierr);
    p->d_otab = d;
  }
  if (tab) *tab = p->otab;
  if (dev) *dev = p->d_otab;
  PetscFunctionReturn(0);
}
