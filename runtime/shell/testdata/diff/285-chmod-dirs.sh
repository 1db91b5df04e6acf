mkdir -p d/e; touch d/e/f
chmod 700 d; stat -c '%a %A' d
chmod a-x d/e/f; chmod a+X d/e/f; stat -c '%a' d/e/f
chmod u+x d/e/f; chmod a+X d/e/f; stat -c '%a' d/e/f
