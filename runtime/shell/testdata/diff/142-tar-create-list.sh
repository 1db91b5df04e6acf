tar czf src.tgz src && echo created
tar tzf src.tgz | sort
tar cf data.tar data README.md
tar tf data.tar | sort
tar -czf both.tar.gz src/lib data/words.txt
tar -tzf both.tar.gz | sort
tar -tf both.tar.gz | wc -l
