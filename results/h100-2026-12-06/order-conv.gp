# /root/out/order-conv.png from /root/out/order-conv.csv, written by verification/convergence (docs/verification.md); run: gnuplot /root/out/order-conv.gp
set terminal pngcairo size 720,800 noenhanced font ',9'
set output '/root/out/order-conv.png'
set datafile separator ','
imax = 1; emin = 1e300; emax = 0
n = sx = sy = sxx = sxy = se = sxe = 0; x0 = x1 = y0 = y1 = u0 = u1 = 1
stats '/root/out/order-conv.csv' using ((strcol(1) eq 'mgcg' && $12 == 2) ? (x0 = x1, x1 = $2, y0 = y1, y1 = $5, u0 = u1, u1 = $7, n = n + 1, sx = sx + log($2), sy = sy + log($9), sxx = sxx + log($2)**2, sxy = sxy + log($2) * log($9), se = se + log($5), sxe = sxe + log($2) * log($5), emin = emin < $7 ? emin : $7, emin = emin < $5 ? emin : $5, emax = emax > $5 ? emax : $5, emax = emax > $7 ? emax : $7, imax = imax > $9 ? imax : $9) : NaN) nooutput
eH_p2_mgcg = log(y1 / y0) / log(x1 / x0); eJH_p2_mgcg = log(u1 / u0) / log(x1 / x0); its_p2_mgcg = (n * sxy - sx * sy) / (n * sxx - sx**2)
lsH_p2_mgcg = (n * sxe - sx * se) / (n * sxx - sx**2)
xref_p2 = x1; yref_p2 = y1
n = sx = sy = sxx = sxy = se = sxe = 0; x0 = x1 = y0 = y1 = u0 = u1 = 1
stats '/root/out/order-conv.csv' using ((strcol(1) eq 'mgcg' && $12 == 4) ? (x0 = x1, x1 = $2, y0 = y1, y1 = $5, u0 = u1, u1 = $7, n = n + 1, sx = sx + log($2), sy = sy + log($9), sxx = sxx + log($2)**2, sxy = sxy + log($2) * log($9), se = se + log($5), sxe = sxe + log($2) * log($5), emin = emin < $7 ? emin : $7, emin = emin < $5 ? emin : $5, emax = emax > $5 ? emax : $5, emax = emax > $7 ? emax : $7, imax = imax > $9 ? imax : $9) : NaN) nooutput
eH_p4_mgcg = log(y1 / y0) / log(x1 / x0); eJH_p4_mgcg = log(u1 / u0) / log(x1 / x0); its_p4_mgcg = (n * sxy - sx * sy) / (n * sxx - sx**2)
lsH_p4_mgcg = (n * sxe - sx * se) / (n * sxx - sx**2)
xref_p4 = x1; yref_p4 = y1
n = sx = sy = sxx = sxy = se = sxe = 0; x0 = x1 = y0 = y1 = u0 = u1 = 1
stats '/root/out/order-conv.csv' using ((strcol(1) eq 'mgcg' && $12 == 6) ? (x0 = x1, x1 = $2, y0 = y1, y1 = $5, u0 = u1, u1 = $7, n = n + 1, sx = sx + log($2), sy = sy + log($9), sxx = sxx + log($2)**2, sxy = sxy + log($2) * log($9), se = se + log($5), sxe = sxe + log($2) * log($5), emin = emin < $7 ? emin : $7, emin = emin < $5 ? emin : $5, emax = emax > $5 ? emax : $5, emax = emax > $7 ? emax : $7, imax = imax > $9 ? imax : $9) : NaN) nooutput
eH_p6_mgcg = log(y1 / y0) / log(x1 / x0); eJH_p6_mgcg = log(u1 / u0) / log(x1 / x0); its_p6_mgcg = (n * sxy - sx * sy) / (n * sxx - sx**2)
lsH_p6_mgcg = (n * sxe - sx * se) / (n * sxx - sx**2)
xref_p6 = x1; yref_p6 = y1
set multiplot layout 2,1 title 'SBP-SAT manufactured solution: mapping curved, mu basin, faces DDNN, Ns = 1 Nr, SBP order 2,4,6'
set grid
set logscale x 2
set xlabel 'Nr (grid intervals in r)'
kf = 8 * 12.0 / 330; kf = kf < 0.7 ? kf : 0.7
set yrange [emin / (emax / emin)**(kf / (1 - kf)) : emax * 1.5]
set logscale y
set format y '%.0e'
set ylabel 'error'
set key bottom left Left reverse
plot '/root/out/order-conv.csv' using 2:((strcol(1) eq 'mgcg' && $12 == 2) ? $5 : 1/0) with linespoints lc 1 pt 7 dt 1 title sprintf('p2 mgcg: slope %.2f (||e||_H), least squares; %.2f last two grids', lsH_p2_mgcg, eH_p2_mgcg), \
  '/root/out/order-conv.csv' using 2:((strcol(1) eq 'mgcg' && $12 == 2) ? $7 : 1/0) with linespoints lc 1 pt 6 dt 2 notitle, \
  '/root/out/order-conv.csv' using 2:((strcol(1) eq 'mgcg' && $12 == 4) ? $5 : 1/0) with linespoints lc 2 pt 7 dt 1 title sprintf('p4 mgcg: slope %.2f (||e||_H), least squares; %.2f last two grids', lsH_p4_mgcg, eH_p4_mgcg), \
  '/root/out/order-conv.csv' using 2:((strcol(1) eq 'mgcg' && $12 == 4) ? $7 : 1/0) with linespoints lc 2 pt 6 dt 2 notitle, \
  '/root/out/order-conv.csv' using 2:((strcol(1) eq 'mgcg' && $12 == 6) ? $5 : 1/0) with linespoints lc 3 pt 7 dt 1 title sprintf('p6 mgcg: slope %.2f (||e||_H), least squares; %.2f last two grids', lsH_p6_mgcg, eH_p6_mgcg), \
  '/root/out/order-conv.csv' using 2:((strcol(1) eq 'mgcg' && $12 == 6) ? $7 : 1/0) with linespoints lc 3 pt 6 dt 2 notitle, \
  yref_p2 / 4 * (xref_p2 / x)**2 with lines dt 3 lc rgb 'gray' title 'slope -2 (reference)', \
  yref_p4 / 4 * (xref_p4 / x)**4 with lines dt 4 lc rgb 'gray' title 'slope -4 (reference)', \
  yref_p6 / 4 * (xref_p6 / x)**6 with lines dt 5 lc rgb 'gray' title 'slope -6 (reference)', \
  1/0 with lines dt 2 lc rgb 'black' title '||e||_JH (dashed)'
unset logscale y
set format y '%g'
set yrange [0:imax * 1.24 + 1]
set ytics imax > 40 ? 10 : (imax > 16 ? 5 : (imax > 8 ? 2 : 1))
set ylabel 'iterations'
set key top left Left reverse
plot '/root/out/order-conv.csv' using 2:((strcol(1) eq 'mgcg' && $12 == 2) ? $9 : 1/0) with linespoints lc 1 pt 7 title sprintf('p2 mgcg: iterations ~ Nr^%.2f (least squares)', its_p2_mgcg), \
  '/root/out/order-conv.csv' using 2:((strcol(1) eq 'mgcg' && $12 == 4) ? $9 : 1/0) with linespoints lc 2 pt 7 title sprintf('p4 mgcg: iterations ~ Nr^%.2f (least squares)', its_p4_mgcg), \
  '/root/out/order-conv.csv' using 2:((strcol(1) eq 'mgcg' && $12 == 6) ? $9 : 1/0) with linespoints lc 3 pt 7 title sprintf('p6 mgcg: iterations ~ Nr^%.2f (least squares)', its_p6_mgcg)
unset multiplot
