curl -s https://example.com/ >/dev/null || echo "curl failed"
wget -q https://example.com/ 2>/dev/null; [ $? -ne 0 ] && echo "wget failed"
