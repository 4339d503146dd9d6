/** Pages per step of the online backup (4 MiB of 4 KiB pages): short enough a step, few enough steps. */
export const DEFAULT_STEP_PAGES = 1024;
