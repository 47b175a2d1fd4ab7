# /root/out/order-conv-time.png from /root/out/order-conv.csv, written by verification/convergence (docs/verification.md); run: gnuplot /root/out/order-conv-time.gp
set terminal pngcairo size 720,560 noenhanced font ',9'
set output '/root/out/order-conv-time.png'
set datafile separator ','
set title "SBP-SAT manufactured solution: mapping curved, mu basin, faces DDNN, Ns = 1 Nr, SBP order 2,4,6\nerror against time to solution (labels: Nr)"
set grid
set logscale xy
set format y '%.0e'
set xlabel 'time to solution (s): set-up + solve'
set ylabel '||e||_H'
set key top right
plot '/root/out/order-conv.csv' using ($10 + $11):((strcol(1) eq 'mgcg' && $12 == 2) ? $5 : 1/0) with linespoints lc 1 pt 7 title 'p2 mgcg', \
  '/root/out/order-conv.csv' using ($10 + $11):((strcol(1) eq 'mgcg' && $12 == 2) ? $5 : 1/0):(strcol(2)) with labels offset char 0.8,0.6 font ',7' tc lt 1 notitle, \
  '/root/out/order-conv.csv' using ($10 + $11):((strcol(1) eq 'mgcg' && $12 == 4) ? $5 : 1/0) with linespoints lc 2 pt 7 title 'p4 mgcg', \
  '/root/out/order-conv.csv' using ($10 + $11):((strcol(1) eq 'mgcg' && $12 == 4) ? $5 : 1/0):(strcol(2)) with labels offset char 0.8,0.6 font ',7' tc lt 2 notitle, \
  '/root/out/order-conv.csv' using ($10 + $11):((strcol(1) eq 'mgcg' && $12 == 6) ? $5 : 1/0) with linespoints lc 3 pt 7 title 'p6 mgcg', \
  '/root/out/order-conv.csv' using ($10 + $11):((strcol(1) eq 'mgcg' && $12 == 6) ? $5 : 1/0):(strcol(2)) with labels offset char 0.8,0.6 font ',7' tc lt 3 notitle
