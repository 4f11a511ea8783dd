unsigned long sum_of_squares(unsigned n);
unsigned long long sum_of_cubes(unsigned n);
double mean_of_squares(unsigned n);
