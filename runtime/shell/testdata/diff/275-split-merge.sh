split -l 2 data/numbers.txt chunk.
cat chunk.* | cmp - data/numbers.txt && echo rejoined
ls chunk.* | wc -l
rm chunk.*
