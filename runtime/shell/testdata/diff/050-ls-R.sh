ls -R src
