# solvers.png from solvers.csv, written by verification/convergence (docs/verification.md); run: gnuplot solvers.gp
set terminal pngcairo size 720,800 noenhanced font ',9'
set output 'solvers.png'
set datafile separator ','
imax = 1
n = sx = sy = sxx = sxy = 0; x0 = x1 = y0 = y1 = u0 = u1 = 1
stats 'solvers.csv' using (strcol(1) eq 'mgcg' ? (x0 = x1, x1 = $2, y0 = y1, y1 = $5, u0 = u1, u1 = $7, n = n + 1, sx = sx + log($2), sy = sy + log($9), sxx = sxx + log($2)**2, sxy = sxy + log($2) * log($9), imax = imax > $9 ? imax : $9) : NaN) nooutput
eH_mgcg = log(y1 / y0) / log(x1 / x0); eJH_mgcg = log(u1 / u0) / log(x1 / x0); its_mgcg = (n * sxy - sx * sy) / (n * sxx - sx**2)
xref = x1; yref = y1
n = sx = sy = sxx = sxy = 0; x0 = x1 = y0 = y1 = u0 = u1 = 1
stats 'solvers.csv' using (strcol(1) eq 'gamg' ? (x0 = x1, x1 = $2, y0 = y1, y1 = $5, u0 = u1, u1 = $7, n = n + 1, sx = sx + log($2), sy = sy + log($9), sxx = sxx + log($2)**2, sxy = sxy + log($2) * log($9), imax = imax > $9 ? imax : $9) : NaN) nooutput
eH_gamg = log(y1 / y0) / log(x1 / x0); eJH_gamg = log(u1 / u0) / log(x1 / x0); its_gamg = (n * sxy - sx * sy) / (n * sxx - sx**2)
xref = x1; yref = y1
n = sx = sy = sxx = sxy = 0; x0 = x1 = y0 = y1 = u0 = u1 = 1
stats 'solvers.csv' using (strcol(1) eq 'hypre' ? (x0 = x1, x1 = $2, y0 = y1, y1 = $5, u0 = u1, u1 = $7, n = n + 1, sx = sx + log($2), sy = sy + log($9), sxx = sxx + log($2)**2, sxy = sxy + log($2) * log($9), imax = imax > $9 ? imax : $9) : NaN) nooutput
eH_hypre = log(y1 / y0) / log(x1 / x0); eJH_hypre = log(u1 / u0) / log(x1 / x0); its_hypre = (n * sxy - sx * sy) / (n * sxx - sx**2)
xref = x1; yref = y1
set multiplot layout 2,1 title 'SBP-SAT manufactured solution: mapping curved, mu basin, faces DDNN, Ns = 1 Nr'
set grid
set logscale x 2
set xlabel 'Nr (grid intervals in r)'
set logscale y
set format y '%.0e'
set ylabel 'error'
set key top right
plot 'solvers.csv' using 2:(strcol(1) eq 'mgcg' ? $5 : 1/0) with linespoints lc 1 pt 7 dt 1 title sprintf('mgcg: slope %.2f (||e||_H), %.2f (||e||_JH, dashed), last two grids', eH_mgcg, eJH_mgcg), \
  'solvers.csv' using 2:(strcol(1) eq 'mgcg' ? $7 : 1/0) with linespoints lc 1 pt 6 dt 2 notitle, \
  'solvers.csv' using 2:(strcol(1) eq 'gamg' ? $5 : 1/0) with linespoints lc 2 pt 7 dt 1 title sprintf('gamg: slope %.2f (||e||_H), %.2f (||e||_JH, dashed), last two grids', eH_gamg, eJH_gamg), \
  'solvers.csv' using 2:(strcol(1) eq 'gamg' ? $7 : 1/0) with linespoints lc 2 pt 6 dt 2 notitle, \
  'solvers.csv' using 2:(strcol(1) eq 'hypre' ? $5 : 1/0) with linespoints lc 3 pt 7 dt 1 title sprintf('hypre: slope %.2f (||e||_H), %.2f (||e||_JH, dashed), last two grids', eH_hypre, eJH_hypre), \
  'solvers.csv' using 2:(strcol(1) eq 'hypre' ? $7 : 1/0) with linespoints lc 3 pt 6 dt 2 notitle, \
  yref / 4 * (xref / x)**2 with lines dt 3 lc rgb 'gray' title 'slope -2 (reference)'
unset logscale y
set format y '%g'
set yrange [0:imax * 1.15 + 1]
set ytics imax > 40 ? 10 : (imax > 16 ? 5 : (imax > 8 ? 2 : 1))
set ylabel 'iterations'
set key top left
plot 'solvers.csv' using 2:(strcol(1) eq 'mgcg' ? $9 : 1/0) with linespoints lc 1 pt 7 title sprintf('mgcg: iterations ~ Nr^%.2f (least squares)', its_mgcg), \
  'solvers.csv' using 2:(strcol(1) eq 'gamg' ? $9 : 1/0) with linespoints lc 2 pt 7 title sprintf('gamg: iterations ~ Nr^%.2f (least squares)', its_gamg), \
  'solvers.csv' using 2:(strcol(1) eq 'hypre' ? $9 : 1/0) with linespoints lc 3 pt 7 title sprintf('hypre: iterations ~ Nr^%.2f (least squares)', its_hypre)
unset multiplot
