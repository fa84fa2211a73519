// What other rooms read of users/: the functions and types they use. The SQL is in its store.
export {
  existingUserIds,
  findUser,
  findUserByEmail,
  findUserByLogin,
  findUsers,
  hasPassword,
  type User,
} from './store.js';
