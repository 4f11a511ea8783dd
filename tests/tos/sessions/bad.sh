echo before the error
echo "unterminated
echo never printed
