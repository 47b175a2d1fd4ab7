#!/usr/bin/python3
"""A time series from Python: one problem, one KSP (CG + sbpmg, set up once), new boundary data every step, each solve warm-started
from the step before's solution (docs/guide.md "A time series").

    PYTHONPATH=build/python /usr/bin/python3 examples/python/timeseries.py -n 64 -steps 10 [-t0 100]

Face 1 (the inner arc of the quarter annulus of annulus.py) is Dirichlet with u = slip(t) = t (B(theta) + 0.1), a bump B centred
on the face; face 2 Dirichlet 0, faces 3 and 4 free (Neumann 0); mu = 2 + sin(x) cos(y); no forcing. Each step prints its
iterations warm and from a zero guess (cold). Checks: warm never needs more iterations than cold, the preconditioner was set up
once, and the last step's true residual ||b - A u|| <= 10 rtol ||b||.
"""
import numpy as np
import sbpmg
from sbpmg import PETSc


def annulus(r, s):
    rho, theta = 1.5 + 0.5 * r, np.pi / 4 * (s + 1)
    return rho * np.cos(theta), rho * np.sin(theta)


def slip(t):
    return lambda x, y, nx, ny: t * (np.exp(-((np.arctan2(y, x) - np.pi / 4) / 0.3) ** 2) + 0.1)


def main():
    PETSc.Log.begin()  # PETSc's event counts: the PC's set-ups
    opts = PETSc.Options()
    n, steps, t0, rtol = opts.getInt("n", 64), opts.getInt("steps", 10), opts.getReal("t0", 100.0), opts.getReal("rtol", 1e-8)
    problem = sbpmg.Problem(n, bc="DDNN", mapping=annulus, mu=lambda x, y: 2 + np.sin(x) * np.cos(y), forcing=lambda x, y: 0 * x,
                            boundary={2: np.zeros(n + 1), 3: np.zeros(n + 1), 4: np.zeros(n + 1)})
    A = problem.operator()
    u, b = A.createVecs()
    cold, r = u.duplicate(), b.duplicate()
    ksp = PETSc.KSP().create()
    ksp.setOperators(A)
    ksp.setType("cg")
    ksp.getPC().setType("sbpmg")
    ksp.setNormType(PETSc.KSP.NormType.UNPRECONDITIONED)  # the test on ||r|| <= rtol ||b||, warm or cold
    ksp.setTolerances(rtol=rtol)
    ksp.setFromOptions()
    setups = PETSc.Log.Event("PCSetUp")
    before = setups.getPerfInfo()["count"]
    PETSc.Sys.Print(f"{'step':>4} {'t':>8} {'warm its':>8} {'cold its':>8}")
    for k in range(steps + 1):
        t = t0 + k
        problem.set_boundary(1, slip(t))  # evaluated at face 1's nodes, handed over as values
        problem.rhs(b)
        ksp.setInitialGuessNonzero(k > 0)  # step 0 from zero; then from the step before's u
        ksp.solve(b, u)
        warm = ksp.getIterationNumber()
        ksp.setInitialGuessNonzero(False)
        ksp.solve(b, cold)
        its = ksp.getIterationNumber()
        PETSc.Sys.Print(f"{k:4d} {t:8.1f} {warm:8d} {its:8d}")
        assert ksp.getConvergedReason() > 0
        assert warm <= its, f"step {k}: the warm start took {warm} iterations, more than the cold start's {its}"
    A.mult(u, r)
    r.aypx(-1.0, b)
    res = r.norm() / b.norm()
    PETSc.Sys.Print(f"true residual of the last step: {res:.3e}; PCSetUp events: {setups.getPerfInfo()['count'] - before}")
    assert res <= 10 * rtol, f"true residual {res:.3e} above 10 rtol"
    assert setups.getPerfInfo()["count"] - before == 1, "the preconditioner was set up more than once"
    for obj in (ksp, A, u, b, cold, r):
        obj.destroy()
    problem.destroy()


if __name__ == "__main__":
    main()
