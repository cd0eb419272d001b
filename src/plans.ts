/** The plans a workspace can be on: the one list the config, the database and the API use. */
export const planNames = ['free', 'paid'] as const
export type PlanName = (typeof planNames)[number]
