#!/usr/bin/python3
"""A problem of one's own from Python: -div(mu grad u) = f on a quarter annulus 1 <= |x| <= 2, x, y >= 0, solved with petsc4py's
CG and the sbpmg preconditioner; prints the error against the exact solution and draws the solution and the error.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/annulus.py -n 64 [-png annulus.png] [-grid warped] [-max_error e]
        [PETSc options: -ksp_monitor ...]

The grid is a Python function of the reference coordinates (r, s) in [-1, 1]^2, mu, f and the faces' data Python functions of the
physical coordinates: each is evaluated once over numpy arrays of the nodes. u = exp(x) sin(2y) + x y, mu = 2 + sin(x) cos(y);
faces 1 (inner arc) and 3 (y = 0) Dirichlet, 2 (outer arc) and 4 (x = 0) Neumann. With -grid warped the grid is instead the warped
square of `verification/convergence -conv_problem own` (the same u, mu and faces), whose errors that C program prints.
"""
import numpy as np
import sbpmg
from sbpmg import PETSc


def annulus(r, s):  # radius 1..2 along r, angle 0..pi/2 along s
    rho, theta = 1.5 + 0.5 * r, np.pi / 4 * (s + 1)
    return rho * np.cos(theta), rho * np.sin(theta)


def warped(r, s):
    return r + 0.1 * np.sin(np.pi * s), s + 0.1 * np.sin(np.pi * r)


def exact(x, y):
    return np.exp(x) * np.sin(2 * y) + x * y


def mu(x, y):
    return 2 + np.sin(x) * np.cos(y)


def forcing(x, y):  # -div(mu grad u)
    ux, uy = np.exp(x) * np.sin(2 * y) + y, 2 * np.exp(x) * np.cos(2 * y) + x
    mux, muy = np.cos(x) * np.cos(y), -np.sin(x) * np.sin(y)
    return -(mux * ux + muy * uy - 3 * mu(x, y) * np.exp(x) * np.sin(2 * y))


def flux(x, y, nx, ny):  # n.(mu grad u) with n the unit outward normal
    return mu(x, y) * (nx * (np.exp(x) * np.sin(2 * y) + y) + ny * (2 * np.exp(x) * np.cos(2 * y) + x))


def solve(n, grid=annulus, rtol=1e-12, keep=False):
    """Solve on n x n intervals; returns (||e||_H, ||e||_JH, iterations) and, with keep, also x, y, u, u - ue as arrays."""
    problem = sbpmg.Problem(n, bc="DNDN", mapping=grid, mu=mu, forcing=forcing, exact=exact,
                            boundary={1: lambda x, y, nx, ny: exact(x, y), 2: flux, 3: lambda x, y, nx, ny: exact(x, y), 4: flux})
    A = problem.operator()
    u, b = A.createVecs()
    problem.rhs(b)
    ksp = PETSc.KSP().create()
    ksp.setOperators(A)
    ksp.setType("cg")
    ksp.getPC().setType("sbpmg")
    ksp.setTolerances(rtol=rtol, atol=1e-300)
    ksp.setFromOptions()
    ksp.solve(b, u)
    assert ksp.getConvergedReason() > 0, f"CG did not converge: {ksp.getConvergedReason()}"
    eH, eJH = problem.error(u)
    out = (eH, eJH, ksp.getIterationNumber())
    if keep:
        x, y = problem.coordinates()
        U = u.getArray(readonly=True).reshape(x.shape).copy()
        out += (x, y, U, U - exact(x, y))
    for obj in (ksp, A, u, b):
        obj.destroy()
    problem.destroy()
    return out


def picture(path, x, y, u, e):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(1, 2, figsize=(10, 4.2))
    for a, field, title in ((ax[0], u, "solution u"), (ax[1], e, "error u - u_exact")):
        lim = {} if field is u else {"vmin": -abs(e).max(), "vmax": abs(e).max()}  # the error's zero white
        m = a.pcolormesh(x, y, field, shading="gouraud", cmap="viridis" if field is u else "RdBu_r", **lim)
        a.set_aspect("equal")
        a.set_title(title)
        fig.colorbar(m, ax=a)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def main():
    opts = PETSc.Options()
    n = opts.getInt("n", 64)
    grid = {"annulus": annulus, "warped": warped}[opts.getString("grid", "annulus")]
    eH, eJH, its, x, y, u, e = solve(n, grid, keep=True)
    PETSc.Sys.Print(f"N = {n}: error H {eH:.10e}, error JH {eJH:.10e}, {its} CG iterations")
    bound = opts.getReal("max_error", 0)  # CTest python_annulus: fail above this error
    assert not bound or eH <= bound, f"error H {eH:.4e} above {bound:g}"
    png = opts.getString("png", "")
    if png and PETSc.COMM_WORLD.getSize() > 1:
        PETSc.Sys.Print("-png: one rank's block only; run on one rank for the picture")
    elif png:
        picture(png, x, y, u, e)
        PETSc.Sys.Print(f"wrote {png}")


if __name__ == "__main__":
    main()
