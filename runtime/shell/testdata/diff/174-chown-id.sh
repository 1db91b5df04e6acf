touch f
u=$(id -un); g=$(id -gn)
chown "$u" f; echo "chown: $?"
chown "$u:$g" f; echo "both: $?"
chgrp "$g" f; echo "chgrp: $?"
chown -R "$u" src; echo "recursive: $?"
chown "$u" missing 2>/dev/null; echo "missing: $?"
