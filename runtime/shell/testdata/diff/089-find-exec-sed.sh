find src -name '*.ts' -exec sed -i 's/export /pub /' {} \;
grep -rh '^pub' src | sort
