tar czf src.tgz src
mkdir flat
tar xzf src.tgz -C flat --strip-components=1
find flat | sort
tar czf nogo.tgz --exclude='*.go' src
tar tzf nogo.tgz | sort
tar -C src -czf rel.tgz lib
tar tzf rel.tgz | sort
