# curved-square.png from curved-square.csv, written by verification/convergence (docs/verification.md); run: gnuplot curved-square.gp
set terminal pngcairo size 720,800 noenhanced font ',9'
set output 'curved-square.png'
set datafile separator ','
imax = 1
n = sx = sy = sxx = sxy = 0; x0 = x1 = y0 = y1 = u0 = u1 = 1
stats 'curved-square.csv' using (strcol(1) eq 'direct' ? (x0 = x1, x1 = $2, y0 = y1, y1 = $5, u0 = u1, u1 = $7, n = n + 1, sx = sx + log($2), sy = sy + log($9), sxx = sxx + log($2)**2, sxy = sxy + log($2) * log($9), imax = imax > $9 ? imax : $9) : NaN) nooutput
eH_direct = log(y1 / y0) / log(x1 / x0); eJH_direct = log(u1 / u0) / log(x1 / x0); its_direct = (n * sxy - sx * sy) / (n * sxx - sx**2)
xref = x1; yref = y1
set multiplot layout 2,1 title 'SBP-SAT manufactured solution: mapping curved, mu basin, faces DDNN, Ns = 1 Nr'
set grid
set logscale x 2
set xlabel 'Nr (grid intervals in r)'
set logscale y
set format y '%.0e'
set ylabel 'error'
set key top right
plot 'curved-square.csv' using 2:(strcol(1) eq 'direct' ? $5 : 1/0) with linespoints lc 1 pt 7 dt 1 title sprintf('direct: slope %.2f (||e||_H), %.2f (||e||_JH, dashed), last two grids', eH_direct, eJH_direct), \
  'curved-square.csv' using 2:(strcol(1) eq 'direct' ? $7 : 1/0) with linespoints lc 1 pt 6 dt 2 notitle, \
  yref / 4 * (xref / x)**2 with lines dt 3 lc rgb 'gray' title 'slope -2 (reference)'
unset logscale y
set format y '%g'
set yrange [0:imax * 1.15 + 1]
set ytics imax > 40 ? 10 : (imax > 16 ? 5 : (imax > 8 ? 2 : 1))
set ylabel 'iterations'
set key top left
plot 'curved-square.csv' using 2:(strcol(1) eq 'direct' ? $9 : 1/0) with linespoints lc 1 pt 7 title sprintf('direct: iterations ~ Nr^%.2f (least squares)', its_direct)
unset multiplot
