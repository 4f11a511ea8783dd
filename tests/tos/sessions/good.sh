echo script line one
echo script says $USER
hello from a script
