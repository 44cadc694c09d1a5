"foo
  bar"

"foo
  #{bar}"

"fo
o" "ba
r"

"
foo\
"

"
foo\\
"

"
foo\\\
"

"
foo\\\\
"

"
foo\\\\\
"

"
b\
c
"
