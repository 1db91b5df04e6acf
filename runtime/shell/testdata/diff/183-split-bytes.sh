printf 'abcdefghijklmnopqrstuvwxyz' > al
split -b 10 al b_; for f in b_*; do printf '%s=%s\n' "$f" "$(cat $f)"; done
split -b 1K README.md k_; ls k_*
split -n 4 al n_; for f in n_*; do printf '%s=%s\n' "$f" "$(cat $f)"; done
split --additional-suffix=.part -b 13 al s_; ls s_*
rm -f b_* k_* n_* s_*
