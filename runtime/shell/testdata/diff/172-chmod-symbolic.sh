touch f; chmod 640 f
chmod o+w f; stat -c %a f
chmod ug-w f; stat -c %a f
chmod a+rwx,o-x f; stat -c %a f
chmod =r f; stat -c %a f
chmod u+s,g+s f; stat -c %a f
chmod +t f; stat -c %a f
chmod 0644 f; stat -c %a f
mkdir d; chmod 711 d; stat -c '%a %F' d
