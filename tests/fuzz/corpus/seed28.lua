return {} < {}
