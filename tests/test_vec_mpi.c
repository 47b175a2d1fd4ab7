/* On more than one rank: a clear error for the parallel device vector, which does not exist yet; sequential device
   vectors on each rank still work. Run on 2 ranks. */
#include "harness.h"

static const char help[] = "VECOPENCL on several MPI ranks.\n";

static void test_parallel_refused(void **state)
{
  Vec         v = NULL;
  PetscMPIInt size;

  PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  assert_int_equal(size, 2);
  PCALL(SbpmgInitializePackage());
  EXPECT_ERROR(VecCreateOpenCL(PETSC_COMM_WORLD, PETSC_DECIDE, 100, &v), PETSC_ERR_SUP,
               "Vector type opencl on 2 MPI ranks: the parallel device vector (VECMPIOPENCL) is not implemented yet");
  assert_null(v);

  /* what -vec_type opencl|mpiopencl|seqopencl does inside VecSetFromOptions() (called directly here: an error inside
     VecSetFromOptions leaks PETSc 3.18's option strings, which the leak check would flag) */
  PCALL(VecCreate(PETSC_COMM_WORLD, &v));
  PCALL(VecSetSizes(v, PETSC_DECIDE, 100));
  EXPECT_ERROR(VecSetType(v, VECOPENCL), PETSC_ERR_SUP, "the parallel device vector (VECMPIOPENCL) is not implemented yet");
  EXPECT_ERROR(VecSetType(v, VECMPIOPENCL), PETSC_ERR_SUP, "Vector type mpiopencl on 2 MPI ranks");
  EXPECT_ERROR(VecSetType(v, VECSEQOPENCL), PETSC_ERR_SUP, "VECSEQOPENCL is a sequential vector but its communicator has 2 MPI ranks");
  PCALL(VecDestroy(&v));
  EXPECT_ERROR(VecCreateSeqOpenCL(PETSC_COMM_WORLD, 10, &v), PETSC_ERR_SUP, "communicator has 2 MPI ranks");
  assert_null(v);
}

static void test_sequential_per_rank(void **state)
{
  Vec         v;
  PetscMPIInt rank;
  PetscReal   nrm;

  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, 10 + rank, &v));
  PCALL(VecSet(v, 1 + rank));
  PCALL(VecNorm(v, NORM_1, &nrm));
  assert_true(nrm == (PetscReal)(10 + rank) * (1 + rank));
  PCALL(VecDestroy(&v));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_parallel_refused),
    cmocka_unit_test(test_sequential_per_rank),
};

SBPMG_TEST_MAIN(help, tests)
