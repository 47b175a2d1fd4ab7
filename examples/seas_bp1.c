/* The SEAS benchmark BP1-QD (docs/seas.md): an earthquake cycle on a vertical strike-slip fault, rate-and-state friction, one
   multigrid-preconditioned solve per Runge-Kutta stage, the friction solve on the device, the community's station files.
     seas_bp1 -seas_tf 300 -seas_output bp1                                        the first event on the default coarse grid
     seas_bp1 -seas_domain 160e3 -seas_n 512 -seas_fault_dz 25 -seas_tf 3000       finer, the whole benchmark
     seas_bp1 -seas_tf 1 -ts_monitor -ksp_converged_reason -log_view               any TS, KSP and PETSc option
     seas_bp1 -seas_tf 300 -seas_output bp1 -seas_png                              and the pictures (gnuplot bp1.gp in the folder)
     seas_bp1 -seas_tf 300 -seas_green -seas_green_file G.bin                      the fault stress by the Green's function (G kept)
   Prints the simulation, then at the end the summary: events, recurrence, slip, peak slip rate, cost. With -seas_png it runs gnuplot
   on the script the run wrote (bp1.gp): slip_profiles.png and max_slip_rate.png in the output folder. */
#include <sbpmg.h>

static const char help[] = "SEAS BP1-QD: an earthquake-cycle simulation with CG + sbpmg and rate-and-state friction on the device.\n"
                           "  -seas_png : draw slip_profiles.png and max_slip_rate.png with gnuplot at the end\n"
                           "  -seas_green : the fault stress by the discrete Green's function (nf + 1 solves up front, none while stepping)\n";

/* gnuplot on the folder's bp1.gp (rank 0). */
static PetscErrorCode DrawPictures(void)
{
  char        dir[PETSC_MAX_PATH_LEN] = "seas_output", cmd[PETSC_MAX_PATH_LEN + 64];
  PetscMPIInt rank;
  int         rc = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-seas_output", dir, sizeof(dir), NULL));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) {
    PetscCall(PetscSNPrintf(cmd, sizeof(cmd), "cd '%s' && gnuplot bp1.gp", dir));
    rc = system(cmd);
  }
  PetscCallMPI(MPI_Bcast(&rc, 1, MPI_INT, 0, PETSC_COMM_WORLD));
  PetscCheck(rc == 0, PETSC_COMM_WORLD, PETSC_ERR_LIB, "'%s' failed (%d): is gnuplot installed, and the output folder not none?", cmd, rc);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "pictures: %s/slip_profiles.png, %s/max_slip_rate.png\n", dir, dir));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Seas      s;
  PetscBool help_only = PETSC_FALSE, png = PETSC_FALSE;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SbpmgInitializePackage());
  PetscCall(SeasCreate(PETSC_COMM_WORLD, &s));
  PetscCall(SeasSetFromOptions(s));
  PetscCall(SeasSetUp(s));
  PetscCall(SeasView(s, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(PetscOptionsHasHelp(NULL, &help_only));
  if (!help_only) { /* -help: the options of the Seas object, its TS and KSP are printed by the set-up; no run */
    PetscCall(SeasSolve(s));
    PetscCall(SeasSummary(s, PETSC_VIEWER_STDOUT_WORLD));
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-seas_png", &png, NULL));
    if (png) PetscCall(DrawPictures());
  }
  PetscCall(SeasDestroy(&s));
  PetscCall(PetscFinalize());
  return 0;
}
