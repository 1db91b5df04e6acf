du -s notes > /dev/null && echo du-ok
du -s src > /dev/null && echo du-s-ok
