find data -name '*.txt' | xargs rm
ls data
