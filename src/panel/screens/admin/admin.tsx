// Placeholder until the admin screen lands.
export const AdminScreen = () => <main id="main" />
