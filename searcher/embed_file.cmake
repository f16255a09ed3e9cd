# embed_file.cmake -- turn a file into a C array, at build time:
#   cmake -DIN=page.html -DOUT=page_html.c -DNAME=pdx_page_html -P embed_file.cmake
# gives `const unsigned char NAME[]` and `const size_t NAME_len`, so the
# search page ships inside the binary (no files to install, works offline).
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" n)
math(EXPR bytes "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
file(WRITE "${OUT}" "/* Generated from ${IN} by embed_file.cmake; do not edit. */\n#include <stddef.h>\nconst unsigned char ${NAME}[] = {\n${body}0x00};\nconst size_t ${NAME}_len = ${bytes};\n")
