// Dates are formatted in the process's time zone: Shanghai (UTC+8, no daylight saving) for every run.
process.env.TZ = 'Asia/Shanghai';
