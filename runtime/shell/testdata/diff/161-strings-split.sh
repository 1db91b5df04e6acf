printf 'hello\x00\x01ab\x02world wide\x00xyz\n' > bin
strings bin
strings -n 3 bin
strings -t d bin
seq 1 25 > nums
split -l 10 nums; wc -l xa? | tail -1; cat xac
split -l 10 -d --additional-suffix=.txt nums part-; ls part-*
split -b 20 nums b_; ls b_*; cat b_ab
split -n 3 nums c_; wc -c c_*
rm -f xa? part-* b_* c_*
