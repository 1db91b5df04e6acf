seq 1 12 > s.txt
split -l 5 s.txt part_; for f in part_*; do echo "$f: $(wc -l < $f)"; done
split -l 4 -a 3 s.txt p3_; ls p3_*
split -d -l 6 s.txt d_; ls d_*; cat d_01
seq 1 12 | split -l 3 - stdin_; ls stdin_*
split -n l/2 s.txt half_; wc -l half_*
rm -f part_* p3_* d_* stdin_* half_*
