# ns-2 form: packets 1 cumulative_probability
1 1 0
1 1 0.5
10 1 0.9
100 1 1
