jq -r .name data/config.json
jq '.deps | keys' data/config.json
jq -c '.tags' data/config.json
jq '.tags | length' data/config.json
jq -r '.deps | to_entries[] | "\(.key)=\(.value)"' data/config.json
echo '[1,2,3]' | jq 'map(. * 2) | add'
