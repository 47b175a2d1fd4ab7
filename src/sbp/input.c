/* What the user brings, before it is trusted (issue 37; calls nothing else of src/sbp). Nodal data read from PETSc binary files
   (-sbp_grid_file, -sbp_mu_file, SbpProblemLoadNodeCoordinates(), SbpProblemLoadMu()): each vector's header is checked against the file before anything is
   allocated (a header that claims more values than the file holds, a byte-swapped or foreign header, a short file: an error naming the file and what was
   expected), and the values read are checked to be finite, the first bad one named with its file. Values given in a vector: in the problem's order or in
   natural order (the mark of the problem's vectors). An error of a user's function on some ranks made every rank's. */
#include <sbpmg/private/sbpimpl.h>
#include <sys/stat.h>
#include <unistd.h>

/* A big-endian 32-bit integer (PETSc's binary format) from 4 bytes. */
static PetscInt64 SbpBigEndian(const unsigned char *b, int nbytes)
{
  PetscInt64 v = 0;

  for (int k = 0; k < nbytes; k++) v = (v << 8) | b[k];
  if (nbytes == 4 && v >= 2147483648LL) v -= 4294967296LL; /* signed */
  return v;
}

/* What rank 0 found in the header of the next vector: 0 fine (*n its count), else a reason (the numbers in info[]). */
enum { SBP_FILE_OK, SBP_FILE_EMPTY, SBP_FILE_SHORT_HEADER, SBP_FILE_SWAPPED, SBP_FILE_CLASSID, SBP_FILE_NEGATIVE, SBP_FILE_TRUNCATED, SBP_FILE_IO };

static void SbpInspectHeader(int fd, PetscInt64 info[4])
{
  const int     isz = (int)sizeof(PetscInt), hsz = 4 + isz;
  unsigned char h[12];
  struct stat   st;
  off_t         at = lseek(fd, 0, SEEK_CUR);
  ssize_t       got;

  info[0] = SBP_FILE_OK;
  if (at < 0 || fstat(fd, &st)) {
    info[0] = SBP_FILE_IO;
    return;
  }
  info[2] = (PetscInt64)st.st_size - (PetscInt64)at; /* bytes left */
  if (info[2] <= 0) {
    info[0] = SBP_FILE_EMPTY;
    return;
  }
  got = pread(fd, h, (size_t)hsz, at);
  if (got < hsz) {
    info[0] = SBP_FILE_SHORT_HEADER;
    return;
  }
  info[1] = SbpBigEndian(h, 4);
  if (info[1] != VEC_FILE_CLASSID) {
    const unsigned char sw[4] = {h[3], h[2], h[1], h[0]};
    info[0]                   = SbpBigEndian(sw, 4) == VEC_FILE_CLASSID ? SBP_FILE_SWAPPED : SBP_FILE_CLASSID;
    return;
  }
  info[1] = SbpBigEndian(h + 4, isz);
  if (info[1] < 0) {
    info[0] = SBP_FILE_NEGATIVE;
    return;
  }
  info[3] = hsz + info[1] * (PetscInt64)sizeof(PetscScalar); /* bytes the vector needs */
  if (info[3] > info[2]) info[0] = SBP_FILE_TRUNCATED;
}

/* The header of the next vector of a binary viewer, checked on rank 0 against what the file holds (collective). */
static PetscErrorCode SbpCheckVecHeader(SbpProblem p, PetscViewer viewer, const char name[], const char what[])
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)p);
  PetscMPIInt rank;
  PetscInt64  info[4] = {SBP_FILE_OK, 0, 0, 0};
  PetscBool   skip, mpiio;
  const char *expect = "a PETSc binary vector (VecView(): class id 1211214 and the count, big-endian, then the values as doubles)";

  PetscFunctionBegin;
  PetscCall(PetscViewerBinaryGetSkipHeader(viewer, &skip));
  PetscCall(PetscViewerBinaryGetUseMPIIO(viewer, &mpiio));
  if (skip || mpiio) PetscFunctionReturn(0); /* no header to check, or no descriptor on rank 0 */
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (!rank) {
    int fd;
    PetscCall(PetscViewerBinaryGetDescriptor(viewer, &fd));
    SbpInspectHeader(fd, info);
  }
  PetscCallMPI(MPI_Bcast(info, 4, MPIU_INT64, 0, comm));
  switch ((int)info[0]) {
  case SBP_FILE_OK:
    break;
  case SBP_FILE_EMPTY:
    SETERRQ(comm, PETSC_ERR_FILE_UNEXPECTED, "The file %s ends before the %s: expected %s", name, what, expect);
  case SBP_FILE_SHORT_HEADER:
    SETERRQ(comm, PETSC_ERR_FILE_UNEXPECTED, "The file %s is truncated in the header of the %s (%" PetscInt64_FMT " bytes left): expected %s", name, what,
            info[2], expect);
  case SBP_FILE_SWAPPED:
    SETERRQ(comm, PETSC_ERR_FILE_UNEXPECTED, "The file %s holds the %s byte-swapped (little-endian): expected %s", name, what, expect);
  case SBP_FILE_CLASSID:
    SETERRQ(comm, PETSC_ERR_FILE_UNEXPECTED, "The file %s does not hold a vector for the %s (class id %" PetscInt64_FMT "): expected %s", name, what, info[1],
            expect);
  case SBP_FILE_NEGATIVE:
    SETERRQ(comm, PETSC_ERR_FILE_UNEXPECTED, "The file %s claims %" PetscInt64_FMT " values for the %s: expected %s", name, info[1], what, expect);
  case SBP_FILE_TRUNCATED:
    SETERRQ(comm, PETSC_ERR_FILE_UNEXPECTED,
            "The file %s claims %" PetscInt64_FMT " values for the %s (%" PetscInt64_FMT " bytes) but holds %" PetscInt64_FMT
            " bytes from there: truncated, or its header is wrong (expected %s)",
            name, info[1], what, info[3], info[2], expect);
  default:
    SETERRQ(comm, PETSC_ERR_FILE_READ, "The file %s cannot be inspected (lseek or fstat failed) before reading the %s", name, what);
  }
  PetscFunctionReturn(0);
}

/* The first entry of v that is not finite, over all ranks (-1: none), and its value. */
static PetscErrorCode SbpFirstNotFinite(Vec v, PetscInt *first, PetscReal *value)
{
  const PetscScalar *a;
  PetscInt           lo, hi, bad = PETSC_MAX_INT;
  PetscReal          val  = 0;
  MPI_Comm           comm = PetscObjectComm((PetscObject)v);

  PetscFunctionBegin;
  PetscCall(VecGetOwnershipRange(v, &lo, &hi));
  PetscCall(VecGetArrayRead(v, &a));
  for (PetscInt k = lo; k < hi; k++)
    if (PetscIsInfOrNanScalar(a[k - lo])) {
      bad = k;
      val = PetscRealPart(a[k - lo]);
      break;
    }
  PetscCall(VecRestoreArrayRead(v, &a));
  PetscCall(MPIU_Allreduce(&bad, first, 1, MPIU_INT, MPI_MIN, comm));
  if (*first != bad) val = 0;
  PetscCall(MPIU_Allreduce(&val, value, 1, MPIU_REAL, MPIU_SUM, comm)); /* NaN or inf from the one rank that holds it */
  if (*first == PETSC_MAX_INT) *first = -1;
  PetscFunctionReturn(0);
}

/* The next vector of a binary viewer: the header checked against the file first, the values after (nothing left behind on an error). */
PetscErrorCode SbpProblemLoadVec(SbpProblem p, PetscViewer viewer, const char what[], Vec *v)
{
  const char    *name = NULL;
  PetscErrorCode ierr;
  PetscInt       first;
  PetscReal      value;

  PetscFunctionBegin;
  *v = NULL;
  PetscCall(PetscViewerSetUp(viewer));
  PetscCall(PetscViewerFileGetName(viewer, &name));
  if (!name) name = "(unnamed)";
  PetscCall(SbpCheckVecHeader(p, viewer, name, what));
  PetscCall(VecCreate(PetscObjectComm((PetscObject)p), v));
  PetscCall(VecSetType(*v, VECSTANDARD));
  ierr = VecLoad(*v, viewer);
  if (!ierr) ierr = SbpFirstNotFinite(*v, &first, &value);
  if (ierr) PetscCall(VecDestroy(v));
  PetscCall(ierr);
  if (first >= 0) PetscCall(VecDestroy(v));
  PetscCheck(first < 0, PetscObjectComm((PetscObject)p), PETSC_ERR_FILE_UNEXPECTED,
             "The file %s: value %" PetscInt_FMT " of the %s (natural order) is %s: every value must be finite", name, first, what,
             PetscIsNanReal(value) ? "nan" : (value > 0 ? "inf" : "-inf"));
  PetscFunctionReturn(0);
}

/* The vectors in the problem's order (its owned blocks, r fastest, rank after rank: SbpProblemCreateVector(), MatCreateVecs() of
   its operators, and their duplicates, which keep what is composed on them) carry a mark of the grid and this rank's owned box: a
   vector of values given by the user is in this order where it carries the mark of the same grid and box on every rank, or is a
   global vector of the problem's DMDA; in natural order otherwise (docs/guide.md "Bringing a problem"). */
PetscErrorCode SbpProblemMarkVector(SbpProblem p, Vec v)
{
  PetscFunctionBegin;
  if (!p->ordermark) {
    PetscInt *box;
    PetscCall(PetscMalloc1(6, &box));
    box[0] = p->Nr;
    box[1] = p->Ns;
    box[2] = p->xs;
    box[3] = p->ys;
    box[4] = p->xm;
    box[5] = p->ym;
    PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &p->ordermark));
    PetscCall(PetscContainerSetPointer(p->ordermark, box));
    PetscCall(PetscContainerSetUserDestroy(p->ordermark, PetscContainerUserDestroyDefault));
  }
  PetscCall(PetscObjectCompose((PetscObject)v, "SbpProblemOrder", (PetscObject)p->ordermark));
  PetscFunctionReturn(0);
}

/* Whether v is in the problem's order on every rank (above). Collective. */
PetscErrorCode SbpProblemVecInOrder(SbpProblem p, Vec v, PetscBool *inorder)
{
  PetscObject mark;
  DM          dm;
  PetscInt    mine = 0, all;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)v, "SbpProblemOrder", &mark));
  PetscCall(VecGetDM(v, &dm));
  if (mark) {
    PetscInt *b;
    PetscCall(PetscContainerGetPointer((PetscContainer)mark, (void **)&b));
    mine = b[0] == p->Nr && b[1] == p->Ns && b[2] == p->xs && b[3] == p->ys && b[4] == p->xm && b[5] == p->ym;
  } else if (dm && p->da && dm == p->da)
    mine = 1;
  else {
    PetscMPIInt size;
    PetscInt    n;
    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)p), &size));
    PetscCall(VecGetLocalSize(v, &n));
    mine = size == 1 && n == (p->Nr + 1) * (p->Ns + 1); /* one rank: natural order is the problem's */
  }
  PetscCall(MPIU_Allreduce(&mine, &all, 1, MPIU_INT, MPI_MIN, PetscObjectComm((PetscObject)p)));
  *inorder = all ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* The forcing's values at this rank's owned nodes in the order of the problem's vectors (its owned block, r fastest), or NULL where
   the forcing is not values: the user's vector itself where it is in the problem's order (SbpProblemVecInOrder(): made by
   SbpProblemCreateVector(), MatCreateVecs() of its operator, or duplicated from one), else a sequential vector gathered from the
   user's in natural order (node (i,j) at i + (Nr+1) j, any layout: the local sizes say nothing, a natural-order vector of PETSc's
   default layout may have the problem's). The caller destroys it. Collective. */
PetscErrorCode SbpProblemGetForcingOwned(SbpProblem p, Vec *f)
{
  PetscFunctionBegin;
  *f = NULL;
  if (p->forcing.kind == SBP_DATA_VALUES) PetscCall(SbpProblemGetOwnedValues(p, p->forcing.vec, f));
  PetscFunctionReturn(0);
}

/* The same for any vector v of node values (the forcing's, the exact solution's). Collective. */
PetscErrorCode SbpProblemGetOwnedValues(SbpProblem p, Vec v, Vec *f)
{
  PetscBool inorder;

  PetscFunctionBegin;
  PetscCall(SbpProblemVecInOrder(p, v, &inorder));
  if (inorder) {
    PetscCall(PetscObjectReference((PetscObject)v));
    *f = v;
    PetscFunctionReturn(0);
  }
  {
    PetscInt  *idx;
    IS         is;
    VecScatter sc;
    PetscCall(PetscMalloc1(p->xm * p->ym, &idx));
    for (PetscInt j = 0; j < p->ym; j++)
      for (PetscInt i = 0; i < p->xm; i++) idx[i + p->xm * j] = (p->xs + i) + (p->Nr + 1) * (p->ys + j);
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, p->xm * p->ym, idx, PETSC_OWN_POINTER, &is));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, p->xm * p->ym, f));
    PetscCall(VecScatterCreate(v, is, *f, NULL, &sc));
    PetscCall(ISDestroy(&is));
    PetscCall(VecScatterBegin(sc, v, *f, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(sc, v, *f, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterDestroy(&sc));
  }
  PetscFunctionReturn(0);
}

/* Owned-block values a (xm * ym of them, r fastest) into u, a vector in the problem's order. */
PetscErrorCode SbpProblemCopyOwned(SbpProblem p, Vec a, Vec u)
{
  const PetscScalar *x;
  PetscScalar       *y;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(u, &n));
  PetscCheck(n == p->xm * p->ym, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
             "The vector has %" PetscInt_FMT " local entries; this rank owns %" PetscInt_FMT " nodes (SbpProblemCreateVector())", n, p->xm * p->ym);
  PetscCall(VecGetArrayRead(a, &x));
  PetscCall(VecGetArrayWrite(u, &y));
  PetscCall(PetscArraycpy(y, x, n));
  PetscCall(VecRestoreArrayWrite(u, &y));
  PetscCall(VecRestoreArrayRead(a, &x));
  PetscFunctionReturn(0);
}

/* An error of this rank (ierr, from a user's function) made every rank's: the failing ranks pass theirs on, the others name it
   (a collective step follows, which the failing ranks would not reach). Collective. */
PetscErrorCode SbpProblemAgreeOnError(SbpProblem p, PetscErrorCode ierr, const char what[])
{
  PetscMPIInt mine = ierr ? 1 : 0, any;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, PetscObjectComm((PetscObject)p)));
  PetscCall(ierr);
  PetscCheck(!any, PETSC_COMM_SELF, PETSC_ERR_USER, "%s failed on another rank", what);
  PetscFunctionReturn(0);
}
