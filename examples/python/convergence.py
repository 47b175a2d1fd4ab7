#!/usr/bin/python3
"""A convergence study from Python: the problem of annulus.py on grids that double, the errors and the observed orders.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/convergence.py -sizes 16,32,64,128 [-check_order 2,0.1] [-png conv.png]

-check_order o,tol fails (exit status 1) unless the order between the last two grids is within tol of o.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # annulus.py beside this file
import annulus  # noqa: E402
from sbpmg import PETSc  # noqa: E402


def study(sizes):
    """[(N, ||e||_H, ||e||_JH, iterations, order in ||e||_H from the grid before)]"""
    rows = []
    for n in sizes:
        eH, eJH, its = annulus.solve(n)
        order = math.log(rows[-1][1] / eH) / math.log(n / rows[-1][0]) if rows else float("nan")
        rows.append((n, eH, eJH, its, order))
        PETSc.Sys.Print(f"{n:6d} {eH:14.6e} {eJH:14.6e} {its:5d} {order:8.3f}")
    return rows


def main():
    opts = PETSc.Options()
    sizes = [int(v) for v in opts.getString("sizes", "16,32,64,128").split(",")]
    PETSc.Sys.Print(f"{'N':>6} {'error H':>14} {'error JH':>14} {'its':>5} {'order':>8}")
    rows = study(sizes)
    png = opts.getString("png", "")
    if png:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        n = [r[0] for r in rows]
        plt.loglog(n, [r[1] for r in rows], "o-", label="||e||_H")
        plt.loglog(n, [rows[-1][1] * (rows[-1][0] / k) ** 2 for k in n], "--", color="gray", label="slope -2")
        plt.xlabel("N")
        plt.legend()
        plt.savefig(png, dpi=90)
    check = opts.getString("check_order", "")
    if check:
        want, tol = (float(v) for v in check.split(","))
        order = rows[-1][4]
        assert abs(order - want) <= tol, f"observed order {order:.4f} from N = {rows[-2][0]} to {rows[-1][0]} is not within {tol} of {want}"
        PETSc.Sys.Print(f"order check: {order:.4f} within {tol} of {want}")


if __name__ == "__main__":
    main()
